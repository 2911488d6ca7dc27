import { createHash } from "node:crypto"
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Clock, type Duration, Effect, Option, type Scope } from "effect"
import { DatabaseUnavailable } from "./DatabaseErrors.ts"
import * as DataDirLock from "./DataDirLock.ts"
import * as EmbeddedCluster from "./EmbeddedCluster.ts"
import * as EmbeddedUsers from "./EmbeddedUsers.ts"
import * as PostgresBinaries from "./PostgresBinaries.ts"
import * as ServerAccount from "./ServerAccount.ts"

/**
 * The embedded database: a real PostgreSQL server with its files in `<DATA_DIR>/postgres`,
 * shared by every process that uses that DATA_DIR (the service, a worker, `marginctl`).
 *
 * Under the data directory's lock (DataDirLock), a process creates the database if there is
 * none (initdb), starts the server if none runs, or joins the one that runs, whoever started it
 * (a server whose starter was killed is simply joined), and records itself as a user
 * (EmbeddedUsers). When it ends gracefully it removes itself and, if no live user is left,
 * stops the server: the last process out stops it. A stale `postmaster.pid` (the server was
 * killed) is PostgreSQL's to recover at the next start. See docs/database.md.
 */
export interface EmbeddedConnection {
  /** The unix socket a client connects to (`<directory>/.s.PGSQL.<port>`). */
  readonly socket: string
  readonly socketDirectory: string
  readonly port: number
  /** `started`: this process started the server; `joined`: it found it running. */
  readonly role: "started" | "joined"
  readonly serverPid: number
}

export interface ConnectOptions {
  /** Settings the server runs with if this process starts it (tests: no wait for each commit's flush). */
  readonly settings?: Readonly<Record<string, string>>
  /** How long to wait for another process that is creating, starting or stopping the server. */
  readonly lockTimeout?: Duration.Input
}

export const postgresDirectory = (dataDir: string): string => join(dataDir, "postgres")

/** Where the PGlite version of this service kept its database. */
export const pgliteDirectory = (dataDir: string): string => join(dataDir, "pglite")

/** A DATA_DIR of the PGlite version: this version cannot read it, and says so in one line. */
const refusePgliteEra = (dataDir: string): Effect.Effect<void, DatabaseUnavailable> =>
  existsSync(pgliteDirectory(dataDir))
    ? Effect.fail(
        new DatabaseUnavailable({
          message:
            `DATA_DIR ${dataDir} holds a database of the PGlite version of margin-service, which this version cannot open: ` +
            `move it aside (mv ${dataDir} ${dataDir}.pglite) and start again on a fresh embedded PostgreSQL`
        })
      )
    : Effect.void

// Unix socket paths are limited to ~104 bytes (macOS) / 108 (Linux).
const maxSocketPath = 100

/**
 * The directory of the server's socket: its data directory, which only its account (and root)
 * can enter; when that path is too long for a socket, a directory named after it in the temp
 * directory, made as private.
 */
const socketDirectoryFor = (pgdata: string, account: ServerAccount.ServerAccount) =>
  Effect.gen(function* () {
    const inDataDir = join(pgdata, `.s.PGSQL.${EmbeddedCluster.socketPort}`)
    if (Buffer.byteLength(inDataDir) <= maxSocketPath) return pgdata
    const digest = createHash("sha256").update(pgdata).digest("hex").slice(0, 16)
    const directory = join(tmpdir(), `margin-postgres-${digest}`)
    yield* DataDirLock.fsRun(`create ${directory}`, () => mkdirSync(directory, { recursive: true, mode: 0o700 }))
    yield* ServerAccount.give(account, directory)
    return directory
  })

interface Joined {
  readonly postmaster: EmbeddedCluster.Postmaster
  readonly role: "started" | "joined"
  readonly registration: EmbeddedUsers.Registration
}

const elapsedSince = (started: number) => Effect.map(Clock.currentTimeMillis, (now) => `${now - started} ms`)

/** Under the lock: create the database if needed, start the server or find it, and become one of its users. */
const enter = (dataDir: string, account: ServerAccount.ServerAccount, options: ConnectOptions) =>
  Effect.gen(function* () {
    const pgdata = postgresDirectory(dataDir)
    const started = yield* Clock.currentTimeMillis
    if (!EmbeddedCluster.isInitialized(pgdata)) {
      const binaries = yield* PostgresBinaries.load
      yield* EmbeddedCluster.initialize(pgdata, account, binaries)
      yield* Effect.logInfo(`embedded PostgreSQL: created ${pgdata} in ${yield* elapsedSince(started)}`)
    }
    const running = yield* EmbeddedCluster.running(pgdata)
    // A server that is shutting down (someone stopped it by hand) is waited for, then started again.
    const stopping = Option.isSome(running) && running.value.state === "stopping"
    const found =
      stopping && (yield* EmbeddedCluster.awaitGone(running.value.pid, "1 minute")) ? Option.none() : running
    const joined: Omit<Joined, "registration"> = Option.isSome(found)
      ? {
          role: "joined",
          postmaster:
            found.value.state === "ready" ? found.value : yield* EmbeddedCluster.awaitReady(pgdata, found.value.pid)
        }
      : {
          role: "started",
          postmaster: yield* EmbeddedCluster.start(pgdata, {
            account,
            binaries: yield* PostgresBinaries.load,
            socketDirectory: yield* socketDirectoryFor(pgdata, account),
            settings: options.settings ?? {}
          })
        }
    const registration = yield* EmbeddedUsers.add(dataDir)
    yield* Effect.logInfo(
      joined.role === "started"
        ? `embedded PostgreSQL: started server ${joined.postmaster.pid} on ${pgdata} in ${yield* elapsedSince(started)}`
        : `embedded PostgreSQL: joined server ${joined.postmaster.pid} on ${pgdata}`
    )
    return { ...joined, registration }
  })

/** Under the lock: stop being a user, and stop the server when no other live process uses it. */
const leave = (dataDir: string, joined: Joined) =>
  Effect.gen(function* () {
    const pgdata = postgresDirectory(dataDir)
    yield* EmbeddedUsers.remove(joined.registration)
    const others = yield* EmbeddedUsers.live(dataDir)
    if (others.length > 0) {
      const pids = others.map((user) => user.pid).join(", ")
      yield* Effect.logInfo(`embedded PostgreSQL: left server ${joined.postmaster.pid} running for process(es) ${pids}`)
      return
    }
    const found = yield* EmbeddedCluster.running(pgdata)
    if (Option.isNone(found)) return
    const started = yield* Clock.currentTimeMillis
    yield* EmbeddedCluster.stop(pgdata, found.value)
    yield* Effect.logInfo(`embedded PostgreSQL: stopped server ${found.value.pid} in ${yield* elapsedSince(started)}`)
  })

/**
 * Makes the embedded database of `dataDir` available to this process until the scope closes:
 * created, started or joined; left (and stopped, if this process is its last user) at the end.
 * Fails with a message that says what to do when it cannot.
 */
export const connect = (
  dataDir: string,
  options: ConnectOptions = {}
): Effect.Effect<EmbeddedConnection, DatabaseUnavailable, Scope.Scope> =>
  Effect.gen(function* () {
    yield* refusePgliteEra(dataDir)
    yield* DataDirLock.fsRun(`create the data directory ${dataDir}`, () =>
      mkdirSync(dataDir, { recursive: true, mode: 0o700 })
    )
    const account = yield* ServerAccount.resolve
    yield* ServerAccount.makeReachable(account, dataDir)
    const lock = DataDirLock.lockFile(dataDir)
    const joined = yield* Effect.uninterruptibleMask((restore) =>
      Effect.tap(restore(DataDirLock.withLock(lock, enter(dataDir, account, options), options.lockTimeout)), (joined) =>
        Effect.addFinalizer(() =>
          DataDirLock.withLock(lock, leave(dataDir, joined), options.lockTimeout).pipe(
            Effect.catch((error) => Effect.logWarning(`embedded PostgreSQL: ${error.message}`))
          )
        )
      )
    )
    const { postmaster } = joined
    return {
      socket: EmbeddedCluster.socketFile(postmaster),
      socketDirectory: postmaster.socketDirectory,
      port: postmaster.port,
      role: joined.role,
      serverPid: postmaster.pid
    }
  })

/**
 * Makes this checkout's template data directory (EmbeddedTemplate) unless it exists: `npm install`
 * runs it (scripts/postgres-template.ts), so that the first start on a new DATA_DIR copies instead
 * of running initdb. Says where it is, or that it existed.
 */
export const prepareTemplate: Effect.Effect<string, DatabaseUnavailable> = Effect.gen(function* () {
  const binaries = yield* PostgresBinaries.load
  const template = EmbeddedCluster.templateFor(binaries)
  if (template === null) return "no template: the PostgreSQL binaries are not in a node_modules directory"
  if (EmbeddedCluster.isInitialized(template)) return `template ${template} exists`
  const account = yield* ServerAccount.resolve
  yield* Effect.acquireUseRelease(
    DataDirLock.fsRun("create a scratch directory", () => mkdtempSync(join(tmpdir(), "margin-postgres-template-"))),
    (scratch) =>
      Effect.andThen(ServerAccount.makeReachable(account, scratch), () =>
        EmbeddedCluster.initialize(postgresDirectory(scratch), account, binaries)
      ),
    (scratch) =>
      Effect.ignore(DataDirLock.fsRun(`remove ${scratch}`, () => rmSync(scratch, { recursive: true, force: true })))
  )
  return EmbeddedCluster.isInitialized(template)
    ? `made template ${template}`
    : `no template could be kept in ${template}`
})
