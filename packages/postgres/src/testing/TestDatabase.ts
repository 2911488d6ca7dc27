import { createHash, randomBytes } from "node:crypto"
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync
} from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Clock, Context, Effect, Layer, Option, Redacted, type Scope } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient } from "effect/sql"
import * as Database from "../Database.ts"
import * as DatabaseConfig from "../DatabaseConfig.ts"
import { DatabaseInfo } from "../DatabaseInfo.ts"
import * as DataDirLock from "../DataDirLock.ts"
import * as EmbeddedDatabase from "../EmbeddedDatabase.ts"
import * as Migrations from "../Migrations.ts"

/**
 * A fresh, migrated database for one test file, dropped afterwards:
 * - DATABASE_URL set: a new database `margin_test_<time>_<random>` on that server;
 * - otherwise: a throwaway embedded (PGlite) database in a temp directory, copied from a
 *   migrated template that is built once per set of migrations (PGlite's first start takes
 *   5-15 s; a copy opens in 1-4 s).
 *
 * Share it across the tests of a file with `layer(TestDatabase.layer, { timeout: "3 minutes" })`
 * and keep tests independent with their own workspaces (or `TestDatabase.reset`).
 */
export class TestDatabase extends Context.Service<
  TestDatabase,
  {
    readonly backend: "pglite" | "postgres"
    /** The database name (PostgreSQL) or data directory (PGlite). */
    readonly name: string
    /** Empties every table but the migrations' record. */
    readonly reset: Effect.Effect<void>
  }
>()("margin/postgres/TestDatabase") {
  /** PgClient, SqlClient, DatabaseInfo and TestDatabase; setup failures are defects (the test cannot run). */
  static readonly layer: Layer.Layer<Database.Services | TestDatabase> = Layer.effectContext(
    Effect.gen(function* () {
      const url = yield* DatabaseConfig.load
      const { client, info, backend, name } = url._tag === "Postgres" ? yield* onPostgres(url.url) : yield* onPglite
      return Context.make(PgClient.PgClient, client).pipe(
        Context.add(SqlClient.SqlClient, client),
        Context.add(DatabaseInfo, info),
        Context.add(TestDatabase, { backend, name, reset: reset(client) })
      )
    }).pipe(
      // it.layer builds layers with a TestClock, under which the waits of setup would never end.
      Effect.provideService(Clock.Clock, Clock.Clock.defaultValue()),
      Effect.orDie
    )
  ).pipe(Layer.provide(Reactivity.layer))
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

const testDatabasePrefix = "margin_test_"
// A test database older than this belongs to a run that died before dropping it.
const abandonedAfterMs = 6 * 60 * 60 * 1000

const onPostgres = (url: Redacted.Redacted<string>) =>
  Effect.gen(function* () {
    const admin = yield* PgClient.make({ url, maxConnections: 1 })
    const now = yield* Clock.currentTimeMillis
    yield* dropAbandoned(admin, now)
    const name = `${testDatabasePrefix}${now.toString(36)}_${randomBytes(4).toString("hex")}`
    yield* admin.unsafe(`CREATE DATABASE "${name}"`)
    // Dropped over a fresh connection, bounded in time: the admin connection may have been reaped
    // while a long test file ran, and a teardown must never hang a run (a leftover is dropped by a
    // later run once abandoned).
    yield* Effect.addFinalizer(() =>
      Effect.scoped(
        Effect.flatMap(PgClient.make({ url, maxConnections: 1 }), (dropper) =>
          dropper.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
        )
      ).pipe(Effect.timeout("30 seconds"), Effect.ignore)
    )
    const testUrl = new URL(Redacted.value(url))
    testUrl.pathname = `/${name}`
    const { client, info } = yield* Database.makePostgres(Redacted.make(testUrl.toString()), { maxConnections: 4 })
    yield* Migrations.run.pipe(
      Effect.provideService(SqlClient.SqlClient, client),
      Effect.provideService(PgClient.PgClient, client)
    )
    return { client, info, backend: "postgres", name } as const
  })

const dropAbandoned = (admin: PgClient.PgClient, now: number) =>
  Effect.gen(function* () {
    const rows = yield* admin<{ readonly datname: string }>`
      SELECT datname FROM pg_database WHERE datname LIKE ${`${testDatabasePrefix}%`}`
    for (const { datname } of rows) {
      const created = Number.parseInt(datname.slice(testDatabasePrefix.length).split("_")[0] ?? "", 36)
      if (Number.isSafeInteger(created) && now - created > abandonedAfterMs) {
        yield* Effect.ignore(admin.unsafe(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`))
      }
    }
  })

/**
 * A temp DATA_DIR holding a migrated embedded database (a copy of the template), removed with
 * the scope: for tests of the embedded database itself, or of processes sharing one.
 * Acquire it before opening the database, so that it is removed after the database closed.
 */
export const migratedDataDir: Effect.Effect<string, never, Scope.Scope> = Effect.gen(function* () {
  const template = yield* migratedTemplate.pipe(Effect.provide(Reactivity.layer))
  const dataDir = yield* Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "margin-test-"))),
    (dataDir) => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true }))
  )
  yield* Effect.sync(() => cpSync(template, EmbeddedDatabase.pgliteDirectory(dataDir), { recursive: true }))
  return dataDir
}).pipe(Effect.provideService(Clock.Clock, Clock.Clock.defaultValue()), Effect.orDie)

const onPglite = Effect.gen(function* () {
  const dataDir = yield* migratedDataDir
  const { client, info } = yield* Database.makeEmbedded(dataDir)
  return { client, info, backend: "pglite", name: dataDir } as const
})

const migrationsDirectory = new URL("../migrations/", import.meta.url)

/** Names the template after what it contains: the PGlite version and the migrations' source. */
const templateKey = (): string => {
  const hash = createHash("sha256")
  // The installed PGlite, whose data format the template is in (its package.json is not exported).
  const pglite = createRequire(import.meta.url).resolve("@electric-sql/pglite")
  hash.update(readFileSync(join(dirname(pglite), "..", "package.json")))
  hash.update(readFileSync(new URL("../Migrations.ts", import.meta.url)))
  for (const file of readdirSync(migrationsDirectory).sort())
    hash.update(file).update(readFileSync(new URL(file, migrationsDirectory)))
  return hash.digest("hex").slice(0, 16)
}

const templatePrefix = "margin-pglite-template-"
const completeMarker = "margin-template-complete"
// Templates of other migrations (and leftovers of their builds) untouched for a day are removed.
const staleTemplateMs = 24 * 60 * 60 * 1000

/**
 * The PGlite data directory of a freshly migrated database, built by the first test process
 * that needs it (others wait on its lock) and reused until the migrations change.
 */
const migratedTemplate: Effect.Effect<string, unknown, Reactivity.Reactivity> = Effect.gen(function* () {
  const key = yield* Effect.sync(templateKey)
  const template = join(tmpdir(), `${templatePrefix}${key}`)
  const complete = Effect.sync(() => existsSync(join(template, completeMarker)))
  while (!(yield* complete)) {
    const lockDir = `${template}.lock`
    yield* Effect.sync(() => mkdirSync(lockDir, { recursive: true }))
    const lock = yield* Effect.scoped(
      Effect.gen(function* () {
        const lock = yield* DataDirLock.acquire(lockDir)
        if (lock._tag === "Acquired" && !(yield* complete)) yield* buildTemplate(template, key)
        return lock._tag
      })
    )
    if (lock === "Held") yield* Effect.sleep("200 millis")
  }
  const now = yield* Clock.currentTimeMillis
  yield* Effect.sync(() => removeStaleTemplates(key, now))
  return template
})

const buildTemplate = (template: string, key: string) =>
  Effect.gen(function* () {
    const build = `${template}.build-${process.pid}-${randomBytes(4).toString("hex")}`
    yield* Effect.scoped(
      Effect.gen(function* () {
        const { client } = yield* Database.makeEmbedded(build)
        yield* Migrations.run.pipe(
          Effect.provideService(SqlClient.SqlClient, client),
          Effect.provideService(PgClient.PgClient, client)
        )
      })
    )
    yield* Effect.sync(() => {
      const data = EmbeddedDatabase.pgliteDirectory(build)
      // The marker goes in before the rename: a template directory with it is complete.
      writeFileSync(join(data, completeMarker), key)
      rmSync(template, { recursive: true, force: true })
      renameSync(data, template)
      rmSync(build, { recursive: true, force: true })
    })
  })

const removeStaleTemplates = (key: string, now: number): void => {
  for (const entry of readdirSync(tmpdir())) {
    if (!entry.startsWith(templatePrefix) || entry.startsWith(`${templatePrefix}${key}`)) continue
    const path = join(tmpdir(), entry)
    const age = Option.liftThrowable(() => now - statSync(path).mtimeMs)()
    if (Option.isSome(age) && age.value > staleTemplateMs) rmSync(path, { recursive: true, force: true })
  }
}
