import { randomBytes } from "node:crypto"
import { linkSync, readFileSync, unlinkSync, writeFileSync } from "node:fs"
import { hostname } from "node:os"
import { join } from "node:path"
import { Clock, Duration, Effect, Option, Schema, type Scope } from "effect"
import { DatabaseUnavailable } from "./DatabaseErrors.ts"

/**
 * The lock under which a process sets up, starts, joins, leaves or stops the embedded PostgreSQL
 * server of a data directory, so that two processes never do that at once.
 *
 * `<DATA_DIR>/postgres.lock` holds the pid and host of the process that holds it, for the few
 * hundred milliseconds of a start or a stop (seconds for a first initdb). The file is created
 * atomically (link of a complete temp file, which fails if the lock exists), so nobody ever reads
 * half a lock. A lock whose pid is dead is stale: a process takes it over under a second lock
 * (`postgres.lock.takeover`), re-reading it first, so two processes recovering at once cannot both win.
 */
export const Holder = Schema.Struct({
  pid: Schema.Int,
  hostname: Schema.String,
  startedAt: Schema.String
})
export type Holder = typeof Holder.Type

const HolderJson = Schema.fromJsonString(Holder)
const decodeHolder = Schema.decodeUnknownOption(HolderJson)
export const encodeHolder = Schema.encodeSync(HolderJson)

export type LockResult =
  /** This process holds the lock; it goes with the scope. */
  | { readonly _tag: "Acquired" }
  /** A live process holds it. */
  | { readonly _tag: "Held"; readonly holder: Holder }

export const lockFile = (dataDir: string): string => join(dataDir, "postgres.lock")

/** This process, as a lock holder or a user of the server records it. */
export const currentHolder: Effect.Effect<Holder> = Effect.map(Clock.currentTimeMillis, (now) => ({
  pid: process.pid,
  hostname: hostname(),
  startedAt: new Date(now).toISOString()
}))

export const errnoOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined

const fsFailure = (what: string) => (cause: unknown) =>
  new DatabaseUnavailable({ message: `cannot ${what} (${errnoOf(cause) ?? String(cause)})`, cause })

/** Runs a file operation, failing with a message that names it. */
export const fsRun = <A>(what: string, operation: () => A): Effect.Effect<A, DatabaseUnavailable> =>
  Effect.try({ try: operation, catch: fsFailure(what) })

/** Runs a file operation; the errno codes in `expected` are answers (None), not failures. */
export const fsTry = <A>(what: string, operation: () => A, expected: ReadonlyArray<string> = []) =>
  Effect.try({ try: () => Option.some(operation()), catch: (cause) => cause }).pipe(
    Effect.catch((cause) => {
      const errno = errnoOf(cause)
      return errno !== undefined && expected.includes(errno)
        ? Effect.succeed(Option.none<A>())
        : Effect.fail(fsFailure(what)(cause))
    })
  )

/** Creates `path` with `content` unless it exists: false when it does. */
const createExclusive = (path: string, content: string) =>
  Effect.gen(function* () {
    const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`
    yield* fsTry(`write ${temp}`, () => writeFileSync(temp, content, { mode: 0o600 }))
    const linked = yield* fsTry(`create ${path}`, () => linkSync(temp, path), ["EEXIST"]).pipe(
      Effect.ensuring(Effect.ignore(fsTry(`remove ${temp}`, () => unlinkSync(temp), ["ENOENT"])))
    )
    return Option.isSome(linked)
  })

/** The holder written in `path`; None when there is no such file. */
export const readHolder = (path: string) =>
  Effect.gen(function* () {
    const text = yield* fsTry(`read ${path}`, () => readFileSync(path, "utf8"), ["ENOENT"])
    if (Option.isNone(text)) return Option.none<Holder>()
    const holder = decodeHolder(text.value)
    if (Option.isNone(holder)) {
      return yield* new DatabaseUnavailable({
        message: `${path} is not a file this service wrote: remove it if no margin process uses this data directory`
      })
    }
    return holder
  })

export const removeFile = (path: string) => Effect.asVoid(fsTry(`remove ${path}`, () => unlinkSync(path), ["ENOENT"]))

/** Whether process `pid` of this host exists (EPERM: it does, but belongs to another user). */
export const pidAlive = (pid: number): Effect.Effect<boolean> =>
  Effect.try({ try: () => process.kill(pid, 0), catch: errnoOf }).pipe(
    Effect.as(true),
    Effect.catch((errno) => Effect.succeed(errno === "EPERM"))
  )

/** Alive, or on another host (where its pid tells us nothing: assume alive). */
export const isAlive = (holder: Holder): Effect.Effect<boolean> =>
  holder.hostname !== hostname() ? Effect.succeed(true) : pidAlive(holder.pid)

const sameHolder = (a: Holder, b: Holder): boolean =>
  a.pid === b.pid && a.hostname === b.hostname && a.startedAt === b.startedAt

/** Removes a stale lock, unless someone else is already recovering it or it changed meanwhile. */
const takeOver = (path: string, stale: Holder, me: Holder) =>
  Effect.gen(function* () {
    const guard = `${path}.takeover`
    if (yield* createExclusive(guard, encodeHolder(me))) {
      yield* Effect.gen(function* () {
        const current = yield* readHolder(path)
        if (Option.isSome(current) && sameHolder(current.value, stale)) yield* removeFile(path)
      }).pipe(Effect.ensuring(Effect.ignore(removeFile(guard))))
      return
    }
    // Another process is recovering; its guard is abandoned if it died doing so.
    const recovering = yield* readHolder(guard)
    if (Option.isSome(recovering) && !(yield* isAlive(recovering.value))) yield* removeFile(guard)
    else yield* Effect.sleep("20 millis")
  })

/**
 * Takes the lock `path` once, or names the live process that holds it. A lock left by a dead
 * process is recovered. The lock is released with the scope.
 */
export const tryAcquire = (path: string): Effect.Effect<LockResult, DatabaseUnavailable, Scope.Scope> =>
  Effect.gen(function* () {
    const me = yield* currentHolder
    for (let attempt = 0; attempt < 50; attempt++) {
      if (yield* createExclusive(path, encodeHolder(me))) {
        yield* Effect.addFinalizer(() => Effect.ignore(releaseIfMine(path, me)))
        return { _tag: "Acquired" } as const
      }
      const holder = yield* readHolder(path)
      if (Option.isNone(holder)) continue
      if (yield* isAlive(holder.value)) return { _tag: "Held", holder: holder.value } as const
      yield* Effect.logInfo(`recovering the stale lock ${path} of process ${holder.value.pid}, which is gone`)
      yield* takeOver(path, holder.value, me)
    }
    return yield* new DatabaseUnavailable({ message: `cannot take the lock ${path}: it keeps changing hands` })
  })

/**
 * Runs `effect` holding the lock `path`, waiting (up to `timeout`) while another live process
 * holds it. The lock goes when `effect` ends, however it ends.
 */
export const withLock = <A, E, R>(
  path: string,
  effect: Effect.Effect<A, E, R>,
  timeout: Duration.Input = "2 minutes"
): Effect.Effect<A, E | DatabaseUnavailable, Exclude<R, Scope.Scope>> =>
  Effect.scoped(
    Effect.gen(function* () {
      const deadline = (yield* Clock.currentTimeMillis) + Duration.toMillis(Duration.fromInputUnsafe(timeout))
      while (true) {
        const lock = yield* tryAcquire(path)
        if (lock._tag === "Acquired") return yield* effect
        if ((yield* Clock.currentTimeMillis) > deadline) {
          return yield* new DatabaseUnavailable({
            message:
              `process ${lock.holder.pid} (${lock.holder.hostname}) has held ${path} since ${lock.holder.startedAt}: ` +
              `if no margin process is starting or stopping the embedded database, remove that file`
          })
        }
        yield* Effect.sleep("50 millis")
      }
    })
  )

const releaseIfMine = (path: string, me: Holder) =>
  Effect.gen(function* () {
    const current = yield* readHolder(path)
    if (Option.isSome(current) && sameHolder(current.value, me)) yield* removeFile(path)
  })
