import { createHash } from "node:crypto"
import { mkdirSync, unlinkSync } from "node:fs"
import { createConnection } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { Duration, Effect, Option, Scope } from "effect"
import { DatabaseUnavailable } from "./DatabaseErrors.ts"
import * as DataDirLock from "./DataDirLock.ts"
import { serve } from "./PgliteServer.ts"

/**
 * The embedded database: PGlite keeping its files in `<DATA_DIR>/pglite`.
 *
 * PGlite runs inside one process. The first process to start on a data directory owns it
 * (DataDirLock) and serves it on a unix socket; every other process (`marginctl` while the
 * service runs, a second service) connects through that socket and never opens the files,
 * and takes the owner's place if the owner goes. Each process's PgClient, the owner's
 * included, talks to PGlite through the socket. See docs/database.md.
 */
export interface EmbeddedConnection {
  /** Unix socket path a PgClient connects to. */
  readonly socket: string
  /** `owner`: this process opened the files; `attached`: another process serves them. */
  readonly role: "owner" | "attached"
  readonly ownerPid: number
}

export const pgliteDirectory = (dataDir: string): string => join(dataDir, "pglite")

// Unix socket paths are limited to ~104 bytes (macOS) / 108 (Linux).
const maxSocketPath = 100

/** `<DATA_DIR>/pglite.sock`, or a name derived from it in the temp directory when that path is too long. */
export const socketPathFor = (dataDir: string): string => {
  const inDataDir = join(dataDir, "pglite.sock")
  if (Buffer.byteLength(inDataDir) <= maxSocketPath) return inDataDir
  const digest = createHash("sha256").update(dataDir).digest("hex").slice(0, 16)
  return join(tmpdir(), `margin-pglite-${digest}.sock`)
}

/** Opens PGlite on `directory` (`memory://` for a throwaway one) until the scope closes. */
export const openPglite = (directory: string): Effect.Effect<PGlite, DatabaseUnavailable, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => PGlite.create(directory),
      catch: (cause) =>
        new DatabaseUnavailable({
          message: `cannot open the embedded database in ${directory}: ${String(cause)}`,
          cause
        })
    }),
    (db) => Effect.promise(() => db.close())
  )

/** Serves `db` on `socket` until the scope closes, replacing the socket file a crash may have left. */
export const host = (db: PGlite, socket: string): Effect.Effect<void, DatabaseUnavailable, Scope.Scope> =>
  Effect.try({ try: () => unlinkSync(socket), catch: (cause) => cause }).pipe(
    Effect.ignore,
    Effect.andThen(serve(db, socket)),
    Effect.mapError(
      (cause) => new DatabaseUnavailable({ message: `cannot serve the embedded database on ${socket}`, cause })
    )
  )

/** Succeeds when something accepts connections on the unix socket; fails with the errno otherwise. */
const probe = (socket: string): Effect.Effect<void, string> =>
  Effect.callback<void, string>((resume) => {
    const connection = createConnection({ path: socket })
    connection.once("connect", () => {
      connection.end()
      resume(Effect.void)
    })
    connection.once("error", (error: NodeJS.ErrnoException) => {
      connection.destroy()
      resume(Effect.fail(error.code ?? error.message))
    })
    return Effect.sync(() => connection.destroy())
  }).pipe(Effect.timeoutOrElse({ duration: "2 seconds", orElse: () => Effect.fail("ETIMEDOUT") }))

/** Opens the files as their owner and serves them on `socket`, then says so in the lock. */
const own = (dataDir: string, socket: string, lock: DataDirLock.LockResult & { readonly _tag: "Acquired" }) =>
  Effect.gen(function* () {
    const db = yield* openPglite(pgliteDirectory(dataDir))
    yield* host(db, socket)
    yield* lock.publish(socket)
  })

/**
 * While this process is attached, it watches the owner: when the owner is gone (it stopped, or
 * died), this process takes its place on the same socket. Its connections, which reconnect to
 * that socket, carry on after a few seconds; so do those of other attached processes.
 */
const succeedOwner = (dataDir: string, socket: string): Effect.Effect<void, never, Scope.Scope> =>
  Effect.gen(function* () {
    const scope = yield* Effect.scope
    // Whatever a takeover acquires lives in a child of the connection's scope; a failed or
    // needless attempt gives it back at once.
    const attempt = Effect.gen(function* () {
      const child = yield* Scope.fork(scope)
      const owned = yield* Effect.gen(function* () {
        const lock = yield* DataDirLock.acquire(dataDir)
        if (lock._tag === "Held") return false
        yield* Effect.logWarning(
          `the process serving the embedded database in ${dataDir} is gone: this one serves it now`
        )
        yield* own(dataDir, socket, lock)
        return true
      }).pipe(
        Scope.provide(child),
        Effect.onExit((exit) => (exit._tag === "Success" && exit.value ? Effect.void : Scope.close(child, exit)))
      )
      return owned
    })
    const watch = Effect.gen(function* () {
      while (true) {
        yield* Effect.sleep("1 second")
        const owned = yield* attempt.pipe(
          Effect.catch((error) =>
            Effect.as(Effect.logWarning(`cannot take over the embedded database: ${error.message}`), false)
          )
        )
        if (owned) return
      }
    })
    yield* Effect.forkIn(watch, scope)
  })

export interface ConnectOptions {
  /** How long to wait for an owner that is still starting (PGlite's first start takes seconds). */
  readonly readyTimeout?: Duration.Input
  /** How long an owner that has published its socket may leave it unanswered. */
  readonly answerTimeout?: Duration.Input
}

const millis = (input: Duration.Input): number => Duration.toMillis(Duration.fromInputUnsafe(input))

/**
 * Opens the embedded database in `dataDir` as its owner, or attaches to the process that owns it.
 * Fails with a message that says what to do when neither is possible; never opens files that
 * another live process has open.
 */
export const connect = (
  dataDir: string,
  options: ConnectOptions = {}
): Effect.Effect<EmbeddedConnection, DatabaseUnavailable, Scope.Scope> =>
  Effect.gen(function* () {
    yield* Effect.try({
      try: () => mkdirSync(dataDir, { recursive: true, mode: 0o700 }),
      catch: (cause) => new DatabaseUnavailable({ message: `cannot create the data directory ${dataDir}`, cause })
    })
    const readyTimeout = millis(options.readyTimeout ?? "2 minutes")
    const answerTimeout = millis(options.answerTimeout ?? "5 seconds")
    const now = Effect.clockWith((clock) => clock.currentTimeMillis)
    const started = yield* now
    // Since when the published socket has not answered, and how it failed.
    let unanswered = Option.none<{ readonly since: number; readonly errno: string }>()
    while (true) {
      const lock = yield* DataDirLock.acquire(dataDir)
      if (lock._tag === "Acquired") {
        const socket = socketPathFor(dataDir)
        yield* own(dataDir, socket, lock)
        return { socket, role: "owner", ownerPid: process.pid } as const
      }
      const { holder } = lock
      const at = yield* now
      if (holder.socket === null) {
        unanswered = Option.none()
        if (at - started > readyTimeout) {
          return yield* new DatabaseUnavailable({
            message:
              `the embedded database in ${dataDir} is being opened by process ${holder.pid} (${holder.hostname}), ` +
              `which is not ready after ${Math.round((at - started) / 1000)} s`
          })
        }
      } else {
        const answer = yield* Effect.result(probe(holder.socket))
        if (answer._tag === "Success") {
          yield* succeedOwner(dataDir, holder.socket)
          return { socket: holder.socket, role: "attached", ownerPid: holder.pid } as const
        }
        const since = Option.match(unanswered, { onNone: () => at, onSome: (previous) => previous.since })
        unanswered = Option.some({ since, errno: answer.failure })
        if (at - since > answerTimeout) {
          return yield* new DatabaseUnavailable({
            message:
              `the embedded database in ${dataDir} is in use by process ${holder.pid} (${holder.hostname}), ` +
              `which does not answer on ${holder.socket} (${answer.failure}). If that is not a margin process, ` +
              `stop it or remove ${DataDirLock.lockFile(dataDir)}`
          })
        }
      }
      // The owner is starting, or stopping (then its lock goes and this process may take over).
      yield* Effect.sleep("100 millis")
    }
  })
