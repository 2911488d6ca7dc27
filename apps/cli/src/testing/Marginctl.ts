import { execFile } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { assert } from "@effect/vitest"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { Effect, type Scope } from "effect"

/** What one `marginctl` process did. */
export interface Outcome {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const launcher = fileURLToPath(new URL("../../bin/marginctl.js", import.meta.url))
const withTestDeprecations = fileURLToPath(new URL("./marginctlWithTestDeprecations.ts", import.meta.url))
const node = fileURLToPath(new URL("../../../../node_modules/.bin/node", import.meta.url))

/**
 * Runs `marginctl <args>` as its own process, through the launcher `npx marginctl` uses, with
 * `env` on top of a clean environment (no DATABASE_URL, DATA_DIR or SESSION_* unless given).
 */
export const marginctl = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>>): Effect.Effect<Outcome> =>
  run(launcher, args, env)

/** `marginctl` with the tests' deprecated operations (testing/TestDeprecations.ts) instead of production's none. */
export const marginctlWithTestDeprecations = (
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>>
): Effect.Effect<Outcome> => run(withTestDeprecations, args, env)

const run = (
  script: string,
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>>
): Effect.Effect<Outcome> =>
  Effect.callback<Outcome>((resume) => {
    const child = execFile(
      node,
      [script, ...args],
      {
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
        maxBuffer: 64 * 1024 * 1024,
        timeout: 180_000
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
        resume(Effect.succeed({ code, stdout, stderr }))
      }
    )
    return Effect.sync(() => child.kill())
  })

/** A `marginctl` process started in the background. */
export interface StartedMarginctl {
  /** What it has printed on stdout so far. */
  readonly stdout: Effect.Effect<string>
  /** How it ended, once it has. */
  readonly outcome: Effect.Effect<Outcome>
  /** `kill -9`: no finalizer runs; answers the signal it died of, once it has. */
  readonly kill9: Effect.Effect<NodeJS.Signals | null>
}

/**
 * Starts `marginctl <args>` on the test's database without waiting for it, so that a test can wait
 * for what it prints while it runs (the first frame of `run watch`). Killed with the scope.
 */
export const startMarginctlOnTestDatabase = (
  ...args: ReadonlyArray<string>
): Effect.Effect<StartedMarginctl, never, TestDatabase | Scope.Scope> =>
  Effect.flatMap(testDatabaseEnvironment, (env) =>
    Effect.acquireRelease(
      Effect.sync(() => {
        let printed = ""
        let stop = () => {}
        let kill9 = () => {}
        let signal: NodeJS.Signals | null = null
        const ended = new Promise<Outcome>((resolve) => {
          const child = execFile(
            node,
            [launcher, ...args],
            {
              env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
              maxBuffer: 64 * 1024 * 1024
            },
            (error, stdout, stderr) =>
              resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
          )
          child.stdout?.on("data", (chunk: Buffer | string) => {
            printed += String(chunk)
          })
          child.on("exit", (_code, exitSignal) => {
            signal = exitSignal
          })
          stop = () => child.kill()
          kill9 = () => child.kill("SIGKILL")
        })
        return { printed: () => printed, ended, stop, kill9: () => kill9(), signal: () => signal }
      }),
      (started) => Effect.sync(started.stop)
    ).pipe(
      Effect.map(
        (started): StartedMarginctl => ({
          stdout: Effect.sync(started.printed),
          outcome: Effect.promise(() => started.ended),
          kill9: Effect.sync(started.kill9).pipe(
            Effect.andThen(Effect.promise(() => started.ended)),
            Effect.andThen(Effect.sync(started.signal))
          )
        })
      )
    )
  )

/** The one JSON object a successful `--json` command printed on stdout (and nothing else). */
export const jsonOf = (outcome: Outcome): Readonly<Record<string, unknown>> => {
  assert.strictEqual(outcome.code, 0, `marginctl failed: ${outcome.stderr}`)
  const parsed: unknown = JSON.parse(outcome.stdout)
  assert.isTrue(typeof parsed === "object" && parsed !== null && !Array.isArray(parsed), outcome.stdout)
  return typeof parsed === "object" && parsed !== null ? Object.fromEntries(Object.entries(parsed)) : {}
}

/**
 * A failed command: the exit status of its kind (docs/cli.md: 1 refused, 2 usage, 3 not found,
 * 4 conflict, 5 unavailable), nothing on stdout, one `marginctl: ...` line on stderr matching `message`.
 */
export const assertFailed = (outcome: Outcome, message: RegExp, status: number): void => {
  assert.strictEqual(outcome.code, status, `expected exit status ${status}: ${outcome.stderr}${outcome.stdout}`)
  assert.strictEqual(outcome.stdout, "")
  assert.match(outcome.stderr, message)
  assert.match(outcome.stderr, /^marginctl: [^\n]*\n$/, "one line")
}

const kindOfStatus = ["ok", "refused", "usage", "not_found", "conflict", "unavailable"]

/**
 * A failed command with --json: the exit status of its kind, nothing on stdout, and on stderr one
 * JSON object `{ code, message }` with the kind as `code` and `message` matching.
 */
export const assertFailedJson = (outcome: Outcome, message: RegExp, status: number): void => {
  assert.strictEqual(outcome.code, status, `expected exit status ${status}: ${outcome.stderr}${outcome.stdout}`)
  assert.strictEqual(outcome.stdout, "")
  assert.match(outcome.stderr, /^\{[^\n]*\}\n$/, "one JSON line")
  const error: unknown = JSON.parse(outcome.stderr)
  assert.deepStrictEqual(
    typeof error === "object" && error !== null ? Object.keys(error).sort() : [],
    ["code", "message"],
    outcome.stderr
  )
  assert.match(outcome.stderr, new RegExp(`"code":"${kindOfStatus[status]}"`))
  const text = typeof error === "object" && error !== null && "message" in error ? String(error.message) : ""
  assert.match(text, message)
}

/**
 * The rows of the one JSON list a successful `--json` list printed on stdout (and nothing else):
 * `{ data: [rows], next_after, has_more }`, `has_more` exactly when `next_after` names a row.
 */
export const jsonListOf = (outcome: Outcome): ReadonlyArray<Readonly<Record<string, unknown>>> => {
  assert.strictEqual(outcome.code, 0, `marginctl failed: ${outcome.stderr}`)
  const parsed = recordOf(JSON.parse(outcome.stdout))
  assert.deepStrictEqual(Object.keys(parsed).sort(), ["data", "has_more", "next_after"], outcome.stdout)
  assert.strictEqual(parsed.has_more, parsed.next_after !== null, outcome.stdout)
  return listOf(parsed.data).map(recordOf)
}

/** The environment that points a marginctl process at the test's TestDatabase (on the embedded test server or PostgreSQL). */
export const testDatabaseEnvironment = TestDatabase.useSync((database) => ({ DATABASE_URL: database.url }))

/** `marginctl <args>` on the test's database. */
export const marginctlOnTestDatabase = (...args: ReadonlyArray<string>) =>
  Effect.flatMap(testDatabaseEnvironment, (env) => marginctl(args, env))

/** `marginctl <args> --json` on the test's database: its JSON object, the command having succeeded. */
export const marginctlJsonOnTestDatabase = (...args: ReadonlyArray<string>) =>
  Effect.map(marginctlOnTestDatabase(...args, "--json"), jsonOf)

/** `marginctl <args> --json` on the test's database: the rows of its JSON array, the list having succeeded. */
export const marginctlJsonListOnTestDatabase = (...args: ReadonlyArray<string>) =>
  Effect.map(marginctlOnTestDatabase(...args, "--json"), jsonListOf)

/** A JSON value the test expects to be a string / an object / an array. */
export const textOf = (value: unknown): string =>
  typeof value === "string" ? value : assert.fail(`expected a string: ${JSON.stringify(value)}`)
export const recordOf = (value: unknown): Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value))
    : assert.fail(`expected an object: ${JSON.stringify(value)}`)
export const listOf = (value: unknown): ReadonlyArray<unknown> =>
  Array.isArray(value) ? value : assert.fail(`expected an array: ${JSON.stringify(value)}`)

/** A file with `content` in a fresh temp directory. */
export const tempFile = (name: string, content: string): string => {
  const path = join(mkdtempSync(join(tmpdir(), "marginctl-")), name)
  writeFileSync(path, content)
  return path
}

/** Several marginctl processes per test, each a few seconds on a loaded machine. */
export const processTimeout = { timeout: 300_000 }
