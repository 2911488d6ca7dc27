import { randomBytes } from "node:crypto"
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs"
import { hostname } from "node:os"
import { join } from "node:path"
import { Effect, Option, Schema, type Scope } from "effect"
import { DatabaseUnavailable } from "./DatabaseErrors.ts"

/**
 * The lock that makes one process the only one to open the embedded database's files.
 *
 * `<DATA_DIR>/pglite.lock` holds the owner's pid and, once it serves the database, the socket
 * other processes reach it on. The file is created atomically (link of a complete temp file,
 * which fails if the lock exists), so nobody ever reads half a lock. A lock whose pid is dead
 * is stale: a process takes it over under a second lock (`pglite.lock.takeover`), re-reading
 * it first, so two processes recovering at once cannot both win.
 */
export const Holder = Schema.Struct({
  pid: Schema.Int,
  hostname: Schema.String,
  startedAt: Schema.String,
  /** Unix socket path the owner serves the database on; null while it is still starting. */
  socket: Schema.NullOr(Schema.String)
})
export type Holder = typeof Holder.Type

const HolderJson = Schema.fromJsonString(Holder)
const decodeHolder = Schema.decodeUnknownOption(HolderJson)
const encodeHolder = Schema.encodeSync(HolderJson)

export type LockResult =
  /** This process owns the files; `publish` tells others where it serves them. The lock goes with the scope. */
  | { readonly _tag: "Acquired"; readonly publish: (socket: string) => Effect.Effect<void, DatabaseUnavailable> }
  /** A live process owns them. */
  | { readonly _tag: "Held"; readonly holder: Holder }

export const lockFile = (dataDir: string): string => join(dataDir, "pglite.lock")

const errnoOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined

const fsFailure = (what: string) => (cause: unknown) =>
  new DatabaseUnavailable({ message: `cannot ${what} (${errnoOf(cause) ?? String(cause)})`, cause })

/** Runs a file operation; the errno codes in `expected` are answers, not failures. */
const fsTry = <A>(what: string, operation: () => A, expected: ReadonlyArray<string>) =>
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
    yield* fsTry(`write ${temp}`, () => writeFileSync(temp, content, { mode: 0o600 }), [])
    const linked = yield* fsTry(`create ${path}`, () => linkSync(temp, path), ["EEXIST"]).pipe(
      Effect.ensuring(Effect.ignore(fsTry(`remove ${temp}`, () => unlinkSync(temp), ["ENOENT"])))
    )
    return Option.isSome(linked)
  })

/** The holder written in `path`; None when there is no such file. */
const readHolder = (path: string) =>
  Effect.gen(function* () {
    const text = yield* fsTry(`read ${path}`, () => readFileSync(path, "utf8"), ["ENOENT"])
    if (Option.isNone(text)) return Option.none<Holder>()
    const holder = decodeHolder(text.value)
    if (Option.isNone(holder)) {
      return yield* new DatabaseUnavailable({
        message: `the lock file ${path} is not a lock this service wrote: remove it if no margin process uses this data directory`
      })
    }
    return holder
  })

const removeFile = (path: string) => Effect.asVoid(fsTry(`remove ${path}`, () => unlinkSync(path), ["ENOENT"]))

/** Alive, or on another host (where its pid tells us nothing: assume alive). */
export const isAlive = (holder: Holder): Effect.Effect<boolean> =>
  holder.hostname !== hostname()
    ? Effect.succeed(true)
    : Effect.try({ try: () => process.kill(holder.pid, 0), catch: errnoOf }).pipe(
        Effect.as(true),
        // EPERM: the process exists but belongs to another user.
        Effect.catch((errno) => Effect.succeed(errno === "EPERM"))
      )

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
 * Takes the data directory's lock, or names the live process that holds it.
 * A lock left by a dead process is recovered. The lock is released with the scope.
 */
export const acquire = (dataDir: string): Effect.Effect<LockResult, DatabaseUnavailable, Scope.Scope> =>
  Effect.gen(function* () {
    const path = lockFile(dataDir)
    const me: Holder = { pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString(), socket: null }
    for (let attempt = 0; attempt < 50; attempt++) {
      if (yield* createExclusive(path, encodeHolder(me))) {
        yield* Effect.addFinalizer(() => Effect.ignore(releaseIfMine(path, me)))
        const publish = (socket: string) => replace(path, { ...me, socket })
        return { _tag: "Acquired", publish } as const
      }
      const holder = yield* readHolder(path)
      if (Option.isNone(holder)) continue
      if (yield* isAlive(holder.value)) return { _tag: "Held", holder: holder.value } as const
      yield* Effect.logInfo(`recovering the stale lock ${path} of process ${holder.value.pid}, which is gone`)
      yield* takeOver(path, holder.value, me)
    }
    return yield* new DatabaseUnavailable({ message: `cannot take the lock ${path}: it keeps changing hands` })
  })

/** Rewrites the lock atomically (temp file + rename): readers see the old or the new content, whole. */
const replace = (path: string, holder: Holder) =>
  Effect.gen(function* () {
    const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`
    yield* fsTry(`write ${temp}`, () => writeFileSync(temp, encodeHolder(holder), { mode: 0o600 }), [])
    yield* fsTry(`replace ${path}`, () => renameSync(temp, path), [])
  })

const releaseIfMine = (path: string, me: Holder) =>
  Effect.gen(function* () {
    const current = yield* readHolder(path)
    if (Option.isSome(current) && sameHolder(current.value, me)) yield* removeFile(path)
  })
