import { Alerts } from "@margin/core/alerts/Alerts"
import { Recommendations } from "@margin/core/recommendations/Recommendations"
import { PgAdapters } from "@margin/postgres"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { ConfigProvider, Context, Effect, Layer } from "effect"

/**
 * The PostgreSQL server of the fault tests and the approve benchmark: DATABASE_URL when set, else
 * PG_TEST_URL, else the local default. They need real PostgreSQL (several processes, connections to
 * cut), so they use it even in the test run on the embedded database.
 */
export const serverUrl: string =
  process.env.DATABASE_URL ?? process.env.PG_TEST_URL ?? "postgres://postgres@127.0.0.1:5432/test"

/** A fresh database of one test or benchmark run, as the service processes it starts reach it. */
export class ScratchDatabase extends Context.Service<
  ScratchDatabase,
  {
    /** Its URL, for DATABASE_URL of the servers and workers the test starts. */
    readonly url: string
    /** The URL of the same database through another host and port (a proxy in front of it). */
    readonly urlVia: (host: string, port: number) => string
    /** Host and port of the PostgreSQL server itself. */
    readonly host: string
    readonly port: number
  }
>()("margin/worker/testing/ScratchDatabase") {}

/** The scratch database's URLs: the server's, with the database name of TestDatabase. */
const located = Layer.effect(
  ScratchDatabase,
  Effect.gen(function* () {
    const { name } = yield* TestDatabase
    const url = new URL(serverUrl)
    url.pathname = `/${name}`
    const urlVia = (host: string, port: number) => {
      const via = new URL(url)
      via.hostname = host
      via.port = String(port)
      return via.toString()
    }
    return ScratchDatabase.of({ url: url.toString(), urlVia, host: url.hostname, port: Number(url.port || 5432) })
  })
)

/**
 * A fresh, migrated database on `serverUrl` (dropped when the layer closes), its URL, and the
 * PostgreSQL adapters and use cases over it, for seeding and inspecting from the current process.
 */
export const layer = located.pipe(
  Layer.provideMerge(Layer.mergeAll(Recommendations.layer, Alerts.layer).pipe(Layer.provideMerge(PgAdapters.layer))),
  Layer.provideMerge(TestDatabase.layer),
  Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { DATABASE_URL: serverUrl } }))),
  Layer.orDie
)
