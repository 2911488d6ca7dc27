/**
 * The framework floor of `npm run bench:http`: bench/http-bare.ts's work — the same token lookup,
 * rate-budget upsert, membership and issuer lookups, list query and accept transaction, the same
 * client (Database.layerPostgres) — served by Effect's HttpApi on NodeHttpServer, with nothing of
 * ours in between: no middleware, no use case, no repository, no log line, no metrics. The distance
 * from the bare server to this one is what Effect's HTTP stack and fibers cost; from this one to
 * the REST server, what our layers cost. It runs with the REST server's V8 settings
 * (tuneV8ForServing), as the bare server does.
 * Env: DATABASE_URL, PORT, HOST, RATE_LIMIT_PER_MINUTE. Prints `listening` once it serves.
 */
import { createServer } from "node:http"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { hashTokenSecret } from "@margin/edge/auth"
import { Database } from "@margin/postgres"
import { ResponseGuard, routeTable } from "@margin/rest"
import { stdoutJsonLogger, tuneV8ForServing } from "@margin/runtime/lifecycle"
import { Effect, Layer, Logger, Redacted, References, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { acceptInTransaction, listPage, type Row, settings, tokenColumnList } from "./BareWork.ts"

tuneV8ForServing()
const { url, port, host, limitPerMinute } = settings(8789)

const Api = HttpApi.make("floor").add(
  HttpApiGroup.make("recommendations")
    .add(
      HttpApiEndpoint.get("list", "/api/v1/recommendations", {
        query: { limit: Schema.optional(Schema.NumberFromString) },
        success: Schema.Any
      })
    )
    .add(
      HttpApiEndpoint.post("accept", "/api/v1/recommendations/:id/accept", {
        params: { id: Schema.String },
        success: Schema.Any
      })
    )
)

const answer = (status: number, body: unknown) => HttpServerResponse.jsonUnsafe(body, { status })

const Handlers = HttpApiBuilder.group(Api, "recommendations", (handlers) =>
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const tokenColumns = sql.literal(tokenColumnList)

    const authenticate = Effect.fnUntraced(function* (mutation: boolean) {
      const request = yield* HttpServerRequest.HttpServerRequest
      const secret = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? "")?.[1]
      if (secret === undefined) return 401
      const [token] =
        yield* sql<Row>`SELECT ${tokenColumns} FROM api_tokens WHERE secret_hash = ${hashTokenSecret(secret)}`
      if (token === undefined || token.revoked_at !== null) return 401
      const now = Date.now()
      const windowStart = new Date(now - (now % 60_000))
      const [counted] = yield* sql<Row>`
        INSERT INTO rate_budget_windows (key, window_start, count)
        VALUES (${`token:${String(token.id)}`}, ${windowStart}, 1)
        ON CONFLICT (key, window_start) DO UPDATE SET count = rate_budget_windows.count + 1
        RETURNING count`
      if (Number(counted?.count ?? 1) > limitPerMinute) return 429
      yield* sql`SELECT workspace_id, user_id, role FROM memberships WHERE workspace_id = ${String(token.workspace_id)} AND user_id = ${String(token.issued_by)}`
      if (mutation) {
        const [issuer] =
          yield* sql<Row>`SELECT id, email, email_confirmed, deleted_at, created_at FROM users WHERE id = ${String(token.issued_by)}`
        if (issuer === undefined || issuer.deleted_at !== null) return 403
      }
      return { workspaceId: String(token.workspace_id), tokenId: String(token.id) }
    })

    // One generator function per handler for every request, as the REST server's are.
    const list = Effect.fnUntraced(function* (limit: number) {
      const caller = yield* authenticate(false)
      if (typeof caller === "number") return answer(caller, { error: { code: String(caller) } })
      return answer(200, yield* listPage(sql, caller.workspaceId, limit))
    })
    const accept = Effect.fnUntraced(function* (id: string) {
      const caller = yield* authenticate(true)
      if (typeof caller === "number") return answer(caller, { error: { code: String(caller) } })
      const answered = yield* acceptInTransaction(sql, caller, id)
      return answer(answered.status, answered.body)
    })

    return handlers
      .handle("list", ({ query }) => Effect.orDie(list(query.limit ?? 50)))
      .handle("accept", ({ params }) => Effect.orDie(accept(params.id)))
  })
)

const floorApp = HttpApiBuilder.layer(Api).pipe(Layer.provide(Handlers))
// BENCH_FLOOR_GUARD=1: the REST server's response guard (request id, metrics, the JSON log line) on
// the floor too, to see what it costs with nothing else of ours around it.
const withGuard = process.env.BENCH_FLOOR_GUARD === "1"
const app = withGuard
  ? Layer.mergeAll(floorApp, ResponseGuard.layer({ maxBodyBytes: 1 << 20, routes: routeTable(Api, []) }))
  : floorApp
HttpRouter.serve(app, { disableLogger: true }).pipe(
  Layer.provide(
    withGuard
      ? Layer.mergeAll(Logger.layer([stdoutJsonLogger]), Layer.succeed(References.MinimumLogLevel, "Info"))
      : Layer.empty
  ),
  Layer.provide(NodeHttpServer.layer(createServer, { port, host })),
  Layer.provide(Database.layerPostgres(Redacted.make(url))),
  Layer.provide(Layer.succeed(References.TracerEnabled, false)),
  Layer.tap(() => Effect.sync(() => console.log(`listening on http://${host}:${port}`))),
  Layer.launch,
  NodeRuntime.runMain
)
