import { assert, layer } from "@effect/vitest"
import { Readiness } from "@margin/edge/telemetry"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import { Database, Migrations, PgAdapters } from "@margin/postgres"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { ObservedPorts, ServerInfrastructure } from "@margin/runtime"
import * as TcpProxy from "@margin/runtime/testing/TcpProxy"
import { call, expectError, layerOn } from "@margin/runtime/testing/TestServer"
import { StoreRouter } from "@margin/stores"
import { ConfigProvider, Context, Duration, Effect, Layer, Option, Redacted } from "effect"

/**
 * PostgreSQL goes away under load and comes back: the server, connected through a TCP proxy that
 * the test cuts and restores, answers 503 at once while it is away and serves again when it is
 * back, in the same process. Real PostgreSQL, as the connections must be cut.
 */

/** The PostgreSQL server of fault tests: DATABASE_URL when set, else PG_TEST_URL, else the local default. */
const serverUrl = process.env.DATABASE_URL ?? process.env.PG_TEST_URL ?? "postgres://postgres@127.0.0.1:5432/test"

interface ProxiedDatabase {
  readonly proxy: TcpProxy.TcpProxy
  /** The scratch database's URL through the proxy. */
  readonly url: string
}
class Proxied extends Context.Service<Proxied, ProxiedDatabase>()("test/ProxiedDatabase") {}

/** A fresh database on real PostgreSQL (dropped at the end) and a proxy in front of its server. */
const proxied = Layer.effect(
  Proxied,
  Effect.gen(function* () {
    const { name } = yield* TestDatabase
    const target = new URL(serverUrl)
    const proxy = yield* TcpProxy.make({ host: target.hostname, port: Number(target.port || 5432) })
    const url = new URL(target)
    url.hostname = "127.0.0.1"
    url.port = String(proxy.port)
    url.pathname = `/${name}`
    return { proxy, url: url.toString() }
  })
).pipe(
  Layer.provideMerge(TestDatabase.layer),
  Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { DATABASE_URL: serverUrl } })))
)

/** What ServerInfrastructure builds, on the scratch database reached through the proxy. */
const serverPorts = Layer.unwrap(
  Effect.map(
    Proxied.useSync(({ url }) => url),
    (url) =>
      Layer.mergeAll(
        Layer.mergeAll(StoreRouter.layerLive, ObservedPorts.layer).pipe(Layer.provideMerge(PgAdapters.layer)),
        ServerInfrastructure.rateBudgetLayer({
          rateLimitPerMinute: 1_000_000,
          redisUrl: Option.none(),
          rateLimitProcesses: 1,
          redisTimeout: Duration.seconds(2)
        })
      ).pipe(
        Layer.provide(Migrations.layer),
        Layer.provideMerge(Database.layerPostgres(Redacted.make(url), { connectTimeout: Duration.seconds(2) }))
      )
  )
  // The server's database (through the proxy) shadows the scratch database's direct connection.
).pipe(Layer.provideMerge(proxied), Layer.orDie)

const server = layerOn(serverPorts, { readiness: Readiness.layerSql })

layer(server, { excludeTestServices: true, timeout: "2 minutes" })("PostgreSQL lost under load", (it) => {
  it.effect("requests fail fast with 503 and Retry-After, and the service recovers without a restart", () =>
    Effect.gen(function* () {
      const via = (yield* Proxied).proxy
      const { owner } = yield* aWorkspaceWithOwner()
      const runs = call("GET", "/api/v1/runs", { token: owner.token })
      assert.strictEqual((yield* runs).status, 200)

      yield* via.cut
      // A hang is what this guards against, not a speed: the guard is far above any connect
      // timeout, so a loaded machine cannot trip it, and a request that waits forever still does.
      const during = yield* Effect.all(
        Array.from({ length: 40 }, () => runs),
        { concurrency: 20 }
      ).pipe(
        Effect.timeoutOrElse({
          duration: Duration.seconds(60),
          orElse: () => Effect.die(new Error("requests hung while the database was away"))
        })
      )
      for (const reply of during) {
        expectError(reply, 503, "service_unavailable")
        assert.match(reply.headers["retry-after"] ?? "", /^\d+$/)
      }
      assert.strictEqual((yield* call("GET", "/readyz")).status, 503)

      yield* via.restore
      const deadline = performance.now() + 30_000
      let status = 0
      while (status !== 200 && performance.now() < deadline) {
        status = (yield* runs).status
        if (status !== 200) yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 200)))
      }
      assert.strictEqual(status, 200, "served again once the database is back")
      assert.strictEqual((yield* call("GET", "/readyz")).status, 200)
    })
  )
})
