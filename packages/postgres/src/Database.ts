import * as PgClient from "@effect/sql-pg/PgClient"
import { type Config, Context, Duration, Effect, Layer, Redacted, type Scope } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient } from "effect/sql"
import { clientOptions } from "./ClientOptions.ts"
import * as DatabaseConfig from "./DatabaseConfig.ts"
import { type DatabaseConfigError, DatabaseUnavailable, reasonOf } from "./DatabaseErrors.ts"
import { DatabaseInfo } from "./DatabaseInfo.ts"
import * as EmbeddedCluster from "./EmbeddedCluster.ts"
import * as EmbeddedDatabase from "./EmbeddedDatabase.ts"

/**
 * The database of every process (service, worker, marginctl): the PostgreSQL server of DATABASE_URL
 * when it is set, otherwise the embedded PostgreSQL of DATA_DIR (see EmbeddedDatabase). Provides
 * PgClient and SqlClient, configured with ClientOptions (snake_case columns, camelCase rows,
 * bigint as number), and DatabaseInfo. Building the layer checks that the database answers,
 * so a wrong URL fails at start with a message that says what to do, not at the first request.
 */
export type Services = PgClient.PgClient | SqlClient.SqlClient | DatabaseInfo

interface Connected {
  readonly client: PgClient.PgClient
  readonly info: DatabaseInfo["Service"]
}

const toLayer = <E>(
  acquire: Effect.Effect<Connected, E, Scope.Scope | Reactivity.Reactivity>
): Layer.Layer<Services, E> =>
  Layer.effectContext(
    Effect.map(acquire, ({ client, info }) =>
      Context.make(PgClient.PgClient, client).pipe(
        Context.add(SqlClient.SqlClient, client),
        Context.add(DatabaseInfo, info)
      )
    )
  ).pipe(Layer.provide(Reactivity.layer))

const ping = (client: PgClient.PgClient, what: string) =>
  client`SELECT 1`.pipe(
    Effect.timeoutOrElse({
      duration: "30 seconds",
      orElse: () => Effect.fail(new DatabaseUnavailable({ message: `${what} did not answer within 30 s` }))
    }),
    Effect.catchTag("SqlError", (error) =>
      Effect.fail(new DatabaseUnavailable({ message: `cannot reach ${what}: ${reasonOf(error)}`, cause: error }))
    )
  )

/** `PostgreSQL at host:port/database`, without user or password. */
export const describeUrl = (url: Redacted.Redacted<string>): string => {
  const parsed = new URL(Redacted.value(url))
  const host = parsed.host === "" ? (parsed.searchParams.get("host") ?? "localhost") : parsed.host
  return `PostgreSQL at ${host}${parsed.pathname}`
}

/**
 * The database, host and port of `url` as PgClient options, which name its statements' spans
 * (`db.namespace`, `server.address`): @effect/sql-pg 4.0.5 reads them from its options only, so a
 * client configured by URL alone reports `postgres` at `localhost`. They repeat the URL's own
 * values (its `dbname`, `host` and `port` parameters first, as the driver reads them), so the
 * connection is the same. A unix socket's directory is a host too.
 */
const spanTarget = (url: Redacted.Redacted<string>): { database?: string; host?: string; port?: number } => {
  const parsed = new URL(Redacted.value(url))
  const database = parsed.searchParams.get("dbname") ?? parsed.pathname.slice(1)
  const host = parsed.searchParams.get("host") ?? parsed.hostname
  const port = parsed.searchParams.get("port") ?? parsed.port
  // Only plain names: anything percent-encoded or bracketed is left to the driver's own parsing.
  const plainHost = /^[A-Za-z0-9.-]+$/.test(host) || /^\/[A-Za-z0-9._/-]*$/.test(host)
  return {
    ...(/^[A-Za-z0-9_.-]+$/.test(database) ? { database } : {}),
    ...(plainHost ? { host } : {}),
    ...(plainHost && /^[0-9]+$/.test(port) ? { port: Number(port) } : {})
  }
}

export interface PostgresOptions {
  /** Pool size of this process. Default 10. */
  readonly maxConnections?: number
  readonly connectTimeout?: Duration.Input
}

/** PostgreSQL: a pool of `maxConnections`, multiplexed (pipelined queries share connections; transactions get their own). */
export const makePostgres = (
  url: Redacted.Redacted<string>,
  options: PostgresOptions = {}
): Effect.Effect<Connected, DatabaseUnavailable, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function* () {
    const description = describeUrl(url)
    const client = yield* PgClient.make({
      url,
      ...spanTarget(url),
      maxConnections: options.maxConnections ?? 10,
      connectTimeout: options.connectTimeout ?? Duration.seconds(10),
      multiplex: true,
      ...clientOptions
    }).pipe(
      Effect.mapError(
        (error) => new DatabaseUnavailable({ message: `cannot use ${description}: ${reasonOf(error)}`, cause: error })
      )
    )
    yield* ping(client, description)
    return { client, info: { kind: "postgres", role: null, description } } as const
  })

/** Connections of one process to the embedded server: enough for the service's requests and jobs, few backends. */
const embeddedPoolSize = 5

/**
 * The embedded PostgreSQL of `dataDir`, created, started or joined (EmbeddedDatabase.connect),
 * reached over its unix socket, the same client as for a PostgreSQL server.
 */
export const makeEmbedded = (
  dataDir: string,
  options: EmbeddedDatabase.ConnectOptions = {}
): Effect.Effect<Connected, DatabaseUnavailable, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function* () {
    const embedded = yield* EmbeddedDatabase.connect(dataDir, options)
    const description = `embedded PostgreSQL in ${dataDir}`
    const client = yield* PgClient.make({
      path: embedded.socket,
      host: embedded.socketDirectory,
      port: embedded.port,
      username: EmbeddedCluster.superuser,
      database: "postgres",
      maxConnections: embeddedPoolSize,
      connectTimeout: Duration.seconds(10),
      multiplex: true,
      ...clientOptions
    }).pipe(
      Effect.mapError(
        (error) =>
          new DatabaseUnavailable({ message: `cannot use the ${description}: ${reasonOf(error)}`, cause: error })
      )
    )
    yield* ping(client, `the ${description}`)
    return { client, info: { kind: "embedded", role: embedded.role, description } } as const
  })

export const layerPostgres = (
  url: Redacted.Redacted<string>,
  options?: PostgresOptions
): Layer.Layer<Services, DatabaseUnavailable> => toLayer(makePostgres(url, options))

export const layerEmbedded = (
  dataDir: string,
  options?: EmbeddedDatabase.ConnectOptions
): Layer.Layer<Services, DatabaseUnavailable> => toLayer(makeEmbedded(dataDir, options))

export const layerFor = (config: DatabaseConfig.DatabaseConfig): Layer.Layer<Services, DatabaseUnavailable> =>
  config._tag === "Postgres" ? layerPostgres(config.url) : layerEmbedded(config.dataDir)

/** From the environment: DATABASE_URL, else DATA_DIR (default ./.data). Logs which database it uses. */
export const layer: Layer.Layer<Services, DatabaseUnavailable | DatabaseConfigError | Config.ConfigError> =
  Layer.unwrap(Effect.map(DatabaseConfig.load, layerFor)).pipe(
    Layer.tap((context) => Effect.logInfo(`database: ${Context.get(context, DatabaseInfo).description}`))
  )
