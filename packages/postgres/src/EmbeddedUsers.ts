import { randomBytes } from "node:crypto"
import { mkdirSync, readdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Option } from "effect"
import type { DatabaseUnavailable } from "./DatabaseErrors.ts"
import {
  currentHolder,
  encodeHolder,
  fsRun,
  fsTry,
  type Holder,
  isAlive,
  readHolder,
  removeFile
} from "./DataDirLock.ts"

/**
 * The processes that use the embedded server of a data directory: one file each in
 * `<DATA_DIR>/postgres.users/`, holding its pid, host and start. A process adds itself when it
 * starts or joins the server and removes itself when it leaves; the one that leaves last stops
 * the server. A file whose process is gone (killed) is dropped when the list is read. Every
 * change happens under the data directory's lock (DataDirLock), so the list is never read half-changed.
 */
export const usersDirectory = (dataDir: string): string => join(dataDir, "postgres.users")

export interface Registration {
  readonly file: string
  readonly holder: Holder
}

/** Adds this process to the users of `dataDir`'s server. */
export const add = (dataDir: string): Effect.Effect<Registration, DatabaseUnavailable> =>
  Effect.gen(function* () {
    const directory = usersDirectory(dataDir)
    const holder = yield* currentHolder
    // Several users may live in one process (test files in worker threads): each has its own file.
    const file = join(directory, `${holder.pid}-${randomBytes(4).toString("hex")}.json`)
    yield* fsRun(`register in ${directory}`, () => {
      mkdirSync(directory, { recursive: true, mode: 0o700 })
      writeFileSync(file, encodeHolder(holder), { mode: 0o600 })
    })
    return { file, holder }
  })

export const remove = (registration: Registration): Effect.Effect<void, DatabaseUnavailable> =>
  removeFile(registration.file)

/** The live users of `dataDir`'s server; the files of processes that are gone are removed. */
export const live = (dataDir: string): Effect.Effect<ReadonlyArray<Holder>, DatabaseUnavailable> =>
  Effect.gen(function* () {
    const directory = usersDirectory(dataDir)
    const names = yield* fsTry(`list ${directory}`, () => readdirSync(directory), ["ENOENT"])
    const users: Array<Holder> = []
    for (const name of Option.getOrElse(names, () => [])) {
      if (!name.endsWith(".json")) continue
      const file = join(directory, name)
      const holder = yield* readHolder(file).pipe(Effect.orElseSucceed(() => Option.none<Holder>()))
      if (Option.isSome(holder) && (yield* isAlive(holder.value))) users.push(holder.value)
      else yield* removeFile(file)
    }
    return users
  })
