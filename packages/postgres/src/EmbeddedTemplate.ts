import { createHash } from "node:crypto"
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs"
import { dirname, join } from "node:path"
import { Clock, Effect } from "effect"
import { fsRun } from "./DataDirLock.ts"
import type { PostgresBinaries } from "./PostgresBinaries.ts"
import { programEnvironment, runProgram, tailOf } from "./RunProgram.ts"
import * as ServerAccount from "./ServerAccount.ts"

/**
 * A data directory as initdb leaves it, kept to be copied: a new DATA_DIR's database is a copy of
 * it, written to disk (`initdb --sync-only`), instead of a new initdb, which takes seconds (its
 * bootstrap, then an fsync of each of its ~1,000 files). The first initdb of a checkout keeps it
 * (`keep`), and `npm install` makes it ahead (scripts/postgres-template.ts), so a fresh clone's
 * first `npm start` copies too.
 *
 * It lives in `node_modules/.cache/margin-service/` beside the binaries' package (owned by whoever
 * installed them: no other account can put one there), one per build of the binaries and set of
 * initdb arguments, so new binaries or new arguments make a new one. It is only ever created whole
 * (copied beside and renamed into place). Anything wrong with it (made by another account,
 * removed meanwhile) falls back to initdb: it is a cache, never needed.
 */

/** The template for `binaries` made with `initdbArguments`, or null when the binaries are not in a node_modules. */
export const directoryFor = (binaries: PostgresBinaries, initdbArguments: ReadonlyArray<string>): string | null => {
  const at = binaries.initdb.lastIndexOf("/node_modules/")
  if (at === -1) return null
  const build = createHash("sha256")
    .update(`${binaries.initdb}:${statSync(binaries.initdb).size}:${statSync(binaries.postgres).size}\n`)
    .update(initdbArguments.join("\n"))
    .digest("hex")
    .slice(0, 16)
  return join(binaries.initdb.slice(0, at), "node_modules", ".cache", "margin-service", `postgres-template-${build}`)
}

const isComplete = (template: string) => existsSync(join(template, "PG_VERSION"))

/**
 * Writes every file of `pgdata` to disk, as initdb does after it made them: with one syncfs on
 * Linux (PostgreSQL's `--sync-method=syncfs`), file by file elsewhere.
 */
export const syncArguments: ReadonlyArray<string> = process.platform === "linux" ? ["--sync-method=syncfs"] : []

/**
 * Fills the empty directory `building` with a copy of `template`, owned by the server's account
 * and written to disk: true when done, false when there is no template or it could not be used
 * (the caller then runs initdb).
 */
export const copy = (
  template: string | null,
  building: string,
  account: ServerAccount.ServerAccount,
  binaries: PostgresBinaries
): Effect.Effect<boolean> =>
  Effect.gen(function* () {
    if (template === null || !isComplete(template)) return false
    // cp -a keeps the modes PostgreSQL insists on (0700); the owner is this process's, or the template's when root.
    const steps: ReadonlyArray<{
      readonly file: string
      readonly args: ReadonlyArray<string>
      readonly asServer: boolean
    }> = [
      { file: "cp", args: ["-a", `${template}/.`, building], asServer: false },
      ...(account._tag === "SystemUser"
        ? [{ file: "chown", args: ["-R", `${account.uid}:${account.gid}`, building], asServer: false }]
        : []),
      { file: binaries.initdb, args: ["--sync-only", ...syncArguments, `--pgdata=${building}`], asServer: true }
    ]
    for (const step of steps) {
      const outcome = yield* runProgram(step.file, step.args, {
        ...(step.asServer ? ServerAccount.identity(account) : {}),
        env: programEnvironment()
      })
      if (outcome.code !== 0) {
        yield* Effect.logWarning(
          `embedded PostgreSQL: cannot use the template ${template} (${step.file} exit ${outcome.code}: ${tailOf(outcome.output)}): running initdb`
        )
        return false
      }
    }
    return true
  }).pipe(
    Effect.catch((error) =>
      Effect.as(Effect.logWarning(`embedded PostgreSQL: cannot use the template ${template}: ${error.message}`), false)
    )
  )

/**
 * Keeps a copy of `pgdata`, just made by initdb and not yet started, as the template, unless one
 * exists. Best effort: a template that cannot be made is only a slower next start.
 */
export const keep = (pgdata: string, template: string | null): Effect.Effect<void> =>
  Effect.gen(function* () {
    if (template === null || isComplete(template)) return
    const beside = `${template}.${process.pid}-${yield* Clock.currentTimeMillis}`
    yield* fsRun(`create ${dirname(template)}`, () => mkdirSync(dirname(template), { recursive: true, mode: 0o700 }))
    const copied = yield* runProgram("cp", ["-a", pgdata, beside])
    if (copied.code !== 0) {
      yield* fsRun(`remove ${beside}`, () => rmSync(beside, { recursive: true, force: true }))
      return yield* Effect.logWarning(
        `embedded PostgreSQL: cannot keep a template in ${template}: ${tailOf(copied.output)}`
      )
    }
    // Another process may have kept one first: then this copy goes.
    yield* fsRun(`move ${beside} to ${template}`, () => renameSync(beside, template)).pipe(
      Effect.catch(() => fsRun(`remove ${beside}`, () => rmSync(beside, { recursive: true, force: true })))
    )
  }).pipe(
    Effect.catch((error) =>
      Effect.logWarning(`embedded PostgreSQL: cannot keep a template in ${template}: ${error.message}`)
    )
  )
