/**
 * The baseline of `npm run bench:http`: a bare node:http server that does per request what the REST
 * server does on PostgreSQL, with the same client (Database.layerPostgres: @effect/sql-pg, same pool
 * and codecs, tracing off as in the REST server without OTEL_EXPORTER_OTLP_ENDPOINT) and the same
 * SQL, but no framework: the SHA-256 token lookup, the rate-budget upsert, the membership lookup,
 * then
 *   GET  /api/v1/recommendations?limit=N     the list query, rows mapped to the same JSON by hand;
 *   POST /api/v1/recommendations/:id/accept  the token issuer's lookup (a mutation by the token of a
 *                                            deleted user is 403), then SELECT … FOR UPDATE,
 *                                            UPDATE … AND version = expected, the audit insert, in
 *                                            one transaction.
 * Only what the benchmark sends is handled; anything else answers 404. It runs with the REST server's
 * V8 settings (tuneV8ForServing: no allocation-site pretenuring, TurboFan sooner), so that neither
 * server is measured in a state those settings avoid.
 * Env: DATABASE_URL, PORT, HOST, RATE_LIMIT_PER_MINUTE. Prints `listening` once it serves.
 */
import { createServer, type ServerResponse } from "node:http"
import { hashTokenSecret } from "@margin/edge/auth"
import { Database } from "@margin/postgres"
import { tuneV8ForServing } from "@margin/runtime/lifecycle"
import { type Effect, Layer, ManagedRuntime, Redacted, References } from "effect"
import { SqlClient } from "effect/sql"
import { acceptInTransaction, listPage, type Row, settings, tokenColumnList } from "./BareWork.ts"

tuneV8ForServing()
const { url, port, host, limitPerMinute } = settings(8788)

const runtime = ManagedRuntime.make(
  Layer.merge(Database.layerPostgres(Redacted.make(url)), Layer.succeed(References.TracerEnabled, false))
)
const sql = (await runtime.runPromise(SqlClient.SqlClient)).withoutTransforms()
const run = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => runtime.runPromise(effect)

const tokenColumns = sql.literal(tokenColumnList)

const send = (response: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body)
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  response.end(text)
}

interface Caller {
  readonly workspaceId: string
  readonly tokenId: string
}

/**
 * Token (401), budget (429), membership, and for a mutation the issuer (403 when deleted): the
 * queries of Authenticate for a token caller.
 */
const authenticate = async (authorization: string | undefined, mutation: boolean): Promise<Caller | number> => {
  const secret = /^Bearer +(\S+) *$/i.exec(authorization ?? "")?.[1]
  if (secret === undefined) return 401
  const [token] = await run(
    sql<Row>`SELECT ${tokenColumns} FROM api_tokens WHERE secret_hash = ${hashTokenSecret(secret)}`
  )
  if (token === undefined || token.revoked_at !== null) return 401
  const now = Date.now()
  const windowStart = new Date(now - (now % 60_000))
  const key = `token:${String(token.id)}`
  const [counted] = await run(sql<Row>`
    INSERT INTO rate_budget_windows (key, window_start, count)
    VALUES (${key}, ${windowStart}, 1)
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_budget_windows.count + 1
    RETURNING count`)
  if (Number(counted?.count ?? 1) > limitPerMinute) return 429
  await run(
    sql`SELECT workspace_id, user_id, role FROM memberships WHERE workspace_id = ${String(token.workspace_id)} AND user_id = ${String(token.issued_by)}`
  )
  if (mutation) {
    const [issuer] = await run(
      sql<Row>`SELECT id, email, email_confirmed, deleted_at, created_at FROM users WHERE id = ${String(token.issued_by)}`
    )
    if (issuer === undefined || issuer.deleted_at !== null) return 403
  }
  return { workspaceId: String(token.workspace_id), tokenId: String(token.id) }
}

const list = (caller: Caller, limit: number) => run(listPage(sql, caller.workspaceId, limit))

const accept = (caller: Caller, id: string) => run(acceptInTransaction(sql, caller, id))

const acceptPath = /^\/api\/v1\/recommendations\/([^/]+)\/accept$/

const server = createServer((request, response) => {
  const target = new URL(request.url ?? "/", "http://bare")
  const handle = async () => {
    const caller = await authenticate(request.headers.authorization, request.method !== "GET")
    if (typeof caller === "number") return send(response, caller, { error: { code: String(caller) } })
    if (request.method === "GET" && target.pathname === "/api/v1/recommendations") {
      const limit = Number(target.searchParams.get("limit") ?? 50)
      return send(response, 200, await list(caller, limit))
    }
    const accepted = request.method === "POST" ? acceptPath.exec(target.pathname) : null
    if (accepted?.[1] !== undefined) {
      const answer = await accept(caller, decodeURIComponent(accepted[1]))
      return send(response, answer.status, answer.body)
    }
    return send(response, 404, { error: { code: "not_found" } })
  }
  // Drain the body (accept sends none) before answering.
  request.resume()
  request.on("end", () => {
    handle().catch((error: unknown) => send(response, 500, { error: { code: "internal", message: String(error) } }))
  })
})
server.keepAliveTimeout = 65_000

const stop = () => server.close(() => void runtime.dispose().then(() => process.exit(0)))
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
server.listen(port, host, () => console.log(`listening on http://${host}:${port}`))
