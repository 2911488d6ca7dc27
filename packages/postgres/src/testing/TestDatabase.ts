import { createHash, randomBytes } from "node:crypto"
import { readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Clock, Context, Effect, Layer, Option, Redacted, References, type Scope } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient } from "effect/sql"
import * as Database from "../Database.ts"
import * as DatabaseConfig from "../DatabaseConfig.ts"
import type { DatabaseUnavailable } from "../DatabaseErrors.ts"
import { DatabaseInfo } from "../DatabaseInfo.ts"
import * as DataDirLock from "../DataDirLock.ts"
import * as EmbeddedCluster from "../EmbeddedCluster.ts"
import * as EmbeddedDatabase from "../EmbeddedDatabase.ts"
import * as Migrations from "../Migrations.ts"

/**
 * A fresh, migrated database for one test file, dropped afterwards, on a PostgreSQL server:
 * - DATABASE_URL set: that server;
 * - otherwise: the embedded PostgreSQL of the test runs (`testServerDataDir`), shared by every
 *   test process of the machine's user, started by the first one (vitest's globalSetup keeps it
 *   up for the whole run) and stopped by the last one out, as the service's embedded server is.
 * The database is `margin_test_<time>_<random>`, copied (`CREATE DATABASE ... TEMPLATE`) from
 * a migrated template built once per set of migrations, `margin_template_<hash>_<time>`.
 *
 * Share it across the tests of a file with `layer(TestDatabase.layer, { timeout: "3 minutes" })`
 * and keep tests independent with their own workspaces (or `TestDatabase.reset`).
 */
export class TestDatabase extends Context.Service<
  TestDatabase,
  {
    readonly backend: "embedded" | "postgres"
    /** The database's name on its server. */
    readonly name: string
    /** A DATABASE_URL that reaches this database, for the processes a test starts. */
    readonly url: string
    /** Empties every table but the migrations' record. */
    readonly reset: Effect.Effect<void>
  }
>()("margin/postgres/TestDatabase") {
  /** PgClient, SqlClient, DatabaseInfo and TestDatabase; setup failures are defects (the test cannot run). */
  static readonly layer: Layer.Layer<Database.Services | TestDatabase> = Layer.effectContext(
    Effect.gen(function* () {
      const { backend, url: serverUrl } = yield* testServer
      const { client, info, name, url } = yield* freshDatabase(serverUrl)
      return Context.make(PgClient.PgClient, client).pipe(
        Context.add(SqlClient.SqlClient, client),
        Context.add(DatabaseInfo, info),
        Context.add(TestDatabase, { backend, name, url: Redacted.value(url), reset: reset(client) })
      )
    }).pipe(
      // it.layer builds layers with a TestClock, under which the waits of setup would never end.
      Effect.provideService(Clock.Clock, Clock.Clock.defaultValue()),
      quietly,
      Effect.orDie
    )
  ).pipe(Layer.provide(Reactivity.layer))
}

/** The embedded server's start and stop lines would repeat in every test file's output. */
function quietly<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> {
  return Effect.provideService(effect, References.MinimumLogLevel, "Warn")
}

const reset = (sql: PgClient.PgClient): Effect.Effect<void> =>
  Effect.gen(function* () {
    const tables = yield* sql<{ readonly tablename: string }>`
      SELECT tablename FROM pg_tables
      WHERE schemaname = current_schema() AND tablename <> 'effect_sql_migrations'`
    if (tables.length === 0) return
    const names = tables.map((table) => `"${table.tablename.replaceAll('"', '""')}"`)
    yield* sql.unsafe(`TRUNCATE ${names.join(", ")} CASCADE`)
  }).pipe(Effect.orDie)

/** The DATA_DIR of the test runs' embedded server: one per user of the machine, in the temp directory. */
export const testServerDataDir = join(tmpdir(), `margin-test-postgres-${process.getuid?.() ?? "user"}`)

/**
 * The test server's settings: commits do not wait for their WAL flush (a crash of the machine may
 * lose the last ones, never corrupt the server), and room for many test processes at once.
 */
const testServerSettings = { synchronous_commit: "off", max_connections: "300" }

/** A URL for the embedded server's unix socket, as DATABASE_URL takes it. */
export const socketUrl = (connection: EmbeddedDatabase.EmbeddedConnection, database: string): string => {
  const url = new URL(`postgres:///${database}`)
  url.searchParams.set("host", connection.socketDirectory)
  url.searchParams.set("port", String(connection.port))
  url.searchParams.set("user", EmbeddedCluster.superuser)
  return url.toString()
}

/**
 * The embedded test server, started or joined until the scope closes. A test server whose data
 * directory cannot start (made by another PostgreSQL major version, damaged) is made anew: it
 * holds nothing but test databases.
 */
const embeddedTestServer: Effect.Effect<Redacted.Redacted<string>, DatabaseUnavailable, Scope.Scope> = Effect.gen(
  function* () {
    const connect = EmbeddedDatabase.connect(testServerDataDir, { settings: testServerSettings })
    const connection = yield* connect.pipe(
      Effect.catch((error) =>
        Effect.gen(function* () {
          yield* Effect.logWarning(`the test server cannot start (${error.message}): making it anew`)
          yield* DataDirLock.withLock(
            DataDirLock.lockFile(testServerDataDir),
            Effect.gen(function* () {
              const pgdata = EmbeddedDatabase.postgresDirectory(testServerDataDir)
              if (Option.isNone(yield* EmbeddedCluster.running(pgdata))) {
                yield* DataDirLock.fsRun(`remove ${pgdata}`, () => rmSync(pgdata, { recursive: true, force: true }))
              }
            })
          )
          return yield* connect
        })
      )
    )
    return Redacted.make(socketUrl(connection, "postgres"))
  }
)

/** The server the tests of this process use, from DATABASE_URL (unset: the embedded test server). */
export const testServer = Effect.gen(function* () {
  const config = yield* DatabaseConfig.load
  return config._tag === "Postgres"
    ? { backend: "postgres" as const, url: config.url }
    : { backend: "embedded" as const, url: yield* embeddedTestServer }
})

const testDatabasePrefix = "margin_test_"
const templatePrefix = "margin_template_"
// A test database older than this belongs to a run that died before dropping it.
const abandonedAfterMs = 6 * 60 * 60 * 1000
// Templates of other migrations (other branches, older runs) are dropped after a day.
const staleTemplateMs = 24 * 60 * 60 * 1000

const withDatabase = (url: Redacted.Redacted<string>, name: string): Redacted.Redacted<string> => {
  const target = new URL(Redacted.value(url))
  target.pathname = `/${name}`
  return Redacted.make(target.toString())
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

/** When a `<prefix><time in base 36>_...` name was made; NaN for another shape. */
const createdAt = (name: string, prefix: string): number =>
  Number.parseInt(name.slice(prefix.length).split("_")[0] ?? "", 36)

/** A new database on the server of `url`, copied from the migrated template and dropped with the scope. */
const freshDatabase = (url: Redacted.Redacted<string>) =>
  Effect.gen(function* () {
    const admin = yield* PgClient.make({ url, maxConnections: 1 })
    const now = yield* Clock.currentTimeMillis
    yield* dropAbandoned(admin, now)
    const template = yield* migratedTemplate(admin, url, now)
    const name = `${testDatabasePrefix}${now.toString(36)}_${randomBytes(4).toString("hex")}`
    yield* admin.unsafe(`CREATE DATABASE ${quote(name)} TEMPLATE ${quote(template)}`)
    // Dropped over a fresh connection, bounded in time: the admin connection may have been reaped
    // while a long test file ran, and a teardown must never hang a run (a leftover is dropped by a
    // later run once abandoned).
    yield* Effect.addFinalizer(() =>
      Effect.scoped(
        Effect.flatMap(PgClient.make({ url, maxConnections: 1 }), (dropper) =>
          dropper.unsafe(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`)
        )
      ).pipe(Effect.timeout("30 seconds"), Effect.ignore)
    )
    const databaseUrl = withDatabase(url, name)
    const { client, info } = yield* Database.makePostgres(databaseUrl, { maxConnections: 4 })
    return { client, info, name, url: databaseUrl }
  })

/**
 * Drops what runs that died left behind: test databases after 6 hours; templates of other
 * migrations, and unfinished builds, after a day. The current template stays.
 */
const dropAbandoned = (admin: PgClient.PgClient, now: number) =>
  Effect.gen(function* () {
    const current = `${templatePrefix}${templateKey()}_`
    const rows = yield* admin<{ readonly datname: string }>`
      SELECT datname FROM pg_database
      WHERE starts_with(datname, ${testDatabasePrefix}) OR starts_with(datname, ${templatePrefix})`
    for (const { datname } of rows) {
      const test = datname.startsWith(testDatabasePrefix)
      if (!test && datname.startsWith(current) && !isBuild(datname)) continue
      const age = now - (test ? createdAt(datname, testDatabasePrefix) : templateCreatedAt(datname))
      if (Number.isSafeInteger(age) && age > (test ? abandonedAfterMs : staleTemplateMs)) {
        yield* Effect.ignore(admin.unsafe(`DROP DATABASE IF EXISTS ${quote(datname)} WITH (FORCE)`))
      }
    }
  })

const isBuild = (name: string) => name.endsWith("_build")

const migrationsDirectory = new URL("../migrations/", import.meta.url)

/** Names the template after what it contains: the migrations' source. */
const templateKey = (): string => {
  const hash = createHash("sha256")
  hash.update(readFileSync(new URL("../Migrations.ts", import.meta.url)))
  for (const file of readdirSync(migrationsDirectory).sort())
    hash.update(file).update(readFileSync(new URL(file, migrationsDirectory)))
  return hash.digest("hex").slice(0, 16)
}

/** `margin_template_<key>_<time>`: when the template was made. */
const templateCreatedAt = (name: string): number =>
  Number.parseInt(name.slice(templatePrefix.length).split("_")[1] ?? "", 36)

/**
 * The migrated template of the current migrations on the server of `url`: found, or built. A
 * build migrates a database of its own and renames it into place when complete, so a template
 * with the name is whole; two processes building at once both finish, and the one whose rename
 * comes second drops its copy.
 */
const migratedTemplate = (admin: PgClient.PgClient, url: Redacted.Redacted<string>, now: number) =>
  Effect.gen(function* () {
    const prefix = `${templatePrefix}${templateKey()}_`
    while (true) {
      const existing = yield* admin<{ readonly datname: string }>`
        SELECT datname FROM pg_database WHERE starts_with(datname, ${prefix}) ORDER BY datname`
      const found = existing.find((row) => !isBuild(row.datname))
      if (found !== undefined) return found.datname
      const template = `${prefix}${now.toString(36)}`
      const build = `${template}_${randomBytes(4).toString("hex")}_build`
      yield* admin.unsafe(`CREATE DATABASE ${quote(build)}`)
      yield* Effect.scoped(
        Effect.gen(function* () {
          const { client } = yield* Database.makePostgres(withDatabase(url, build), { maxConnections: 1 })
          yield* Migrations.run.pipe(
            Effect.provideService(SqlClient.SqlClient, client),
            Effect.provideService(PgClient.PgClient, client)
          )
        })
      )
      const renamed = yield* Effect.result(admin.unsafe(`ALTER DATABASE ${quote(build)} RENAME TO ${quote(template)}`))
      if (renamed._tag === "Success") return template
      // Another process renamed its build first: use that one.
      yield* Effect.ignore(admin.unsafe(`DROP DATABASE IF EXISTS ${quote(build)} WITH (FORCE)`))
    }
  })

/**
 * What vitest's globalSetup does once per run: join (or start) the embedded test server, so that
 * it stays up between test files, and build the template before the test processes need it.
 * Without DATABASE_URL only; the scope holds the server until the run ends.
 */
export const prepareRun: Effect.Effect<void, unknown, Scope.Scope> = Effect.gen(function* () {
  const { url } = yield* testServer
  yield* Effect.scoped(
    Effect.gen(function* () {
      const admin = yield* PgClient.make({ url, maxConnections: 1 })
      yield* migratedTemplate(admin, url, yield* Clock.currentTimeMillis)
    })
  )
}).pipe(Effect.provide(Reactivity.layer), quietly)
