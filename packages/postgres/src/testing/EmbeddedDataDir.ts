import { createHash } from "node:crypto"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Option, References, type Scope } from "effect"
import * as DataDirLock from "../DataDirLock.ts"
import * as EmbeddedCluster from "../EmbeddedCluster.ts"
import * as EmbeddedDatabase from "../EmbeddedDatabase.ts"
import * as EmbeddedUsers from "../EmbeddedUsers.ts"
import * as PostgresBinaries from "../PostgresBinaries.ts"
import { runProgram } from "../RunProgram.ts"
import * as ServerAccount from "../ServerAccount.ts"

/**
 * Data directories for tests of the embedded database itself and of processes that share one.
 * Acquire one before connecting to it: it is removed with the scope, after its server stopped
 * (a server a test left running, killed processes' orphans included, is stopped first).
 */

/** A new, empty DATA_DIR in the temp directory. */
export const emptyDataDir: Effect.Effect<string, never, Scope.Scope> = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "margin-data-"))),
  (dataDir) =>
    Effect.gen(function* () {
      const pgdata = EmbeddedDatabase.postgresDirectory(dataDir)
      const running = yield* EmbeddedCluster.running(pgdata)
      if (Option.isSome(running)) yield* EmbeddedCluster.stop(pgdata, running.value)
      yield* Effect.sync(() => rmSync(dataDir, { recursive: true, force: true }))
    }).pipe(Effect.orDie)
)

/**
 * A DATA_DIR whose database exists but does not run: a copy of one initdb made once per user of
 * the machine and PostgreSQL build (initdb takes seconds; a copy a fraction of that).
 */
export const initializedDataDir: Effect.Effect<string, never, Scope.Scope> = Effect.gen(function* () {
  const template = yield* initializedTemplate
  const dataDir = yield* emptyDataDir
  const account = yield* ServerAccount.resolve
  yield* ServerAccount.makeReachable(account, dataDir)
  // cp -a keeps the owner (the server's account, when this process is root) and the modes.
  const copied = yield* runProgram("cp", ["-a", template, EmbeddedDatabase.postgresDirectory(dataDir)])
  if (copied.code !== 0) return yield* Effect.die(`cannot copy ${template}: ${copied.output}`)
  return dataDir
}).pipe(Effect.provideService(References.MinimumLogLevel, "Warn"), Effect.orDie)

const initializedTemplate = Effect.gen(function* () {
  const binaries = yield* PostgresBinaries.load
  const build = createHash("sha256")
    .update(`${statSync(binaries.initdb).size}:${statSync(binaries.postgres).size}`)
    .digest("hex")
    .slice(0, 12)
  const directory = join(tmpdir(), `margin-test-initdb-${process.getuid?.() ?? "user"}-${build}`)
  const pgdata = EmbeddedDatabase.postgresDirectory(directory)
  if (EmbeddedCluster.isInitialized(pgdata)) return pgdata
  const account = yield* ServerAccount.resolve
  yield* DataDirLock.fsRun(`create ${directory}`, () => mkdirSync(directory, { recursive: true, mode: 0o700 }))
  yield* ServerAccount.makeReachable(account, directory)
  yield* DataDirLock.withLock(
    DataDirLock.lockFile(directory),
    Effect.gen(function* () {
      if (!EmbeddedCluster.isInitialized(pgdata)) yield* EmbeddedCluster.initialize(pgdata, account, binaries)
    })
  )
  return pgdata
})

/** The pid in the `postmaster.pid` of `dataDir`'s server, whether that process still runs or not. */
export const serverPid = (dataDir: string): Effect.Effect<Option.Option<number>> =>
  Effect.map(
    EmbeddedCluster.readPostmaster(EmbeddedDatabase.postgresDirectory(dataDir)),
    Option.map((found) => found.pid)
  ).pipe(Effect.orDie)

/** No server is left on `dataDir`: process `pid` is gone, and so is the `postmaster.pid` it wrote. */
export const isStopped = (dataDir: string, pid: number): Effect.Effect<boolean> =>
  Effect.map(
    DataDirLock.pidAlive(pid),
    (alive) => !alive && !existsSync(join(EmbeddedDatabase.postgresDirectory(dataDir), "postmaster.pid"))
  )

/** How many processes are recorded as users of `dataDir`'s server (dead ones included, until someone reads the list). */
export const recordedUsers = (dataDir: string): number => {
  const directory = EmbeddedUsers.usersDirectory(dataDir)
  return existsSync(directory) ? readdirSync(directory).length : 0
}
