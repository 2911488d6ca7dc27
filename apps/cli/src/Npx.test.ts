import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { jsonOf, type Outcome } from "./testing/Marginctl.ts"

const root = fileURLToPath(new URL("../../../", import.meta.url))

const exec = (
  file: string,
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>>
): Effect.Effect<Outcome> =>
  Effect.callback<Outcome>((resume) => {
    const child = execFile(
      file,
      args,
      { cwd: root, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env }, timeout: 240_000 },
      (error, stdout, stderr) =>
        resume(
          Effect.succeed({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
        )
    )
    return Effect.sync(() => child.kill())
  })

const freshDataDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "marginctl-fresh-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

describe("npx marginctl from the repository root", () => {
  it.effect(
    "seeds the demo on a fresh embedded database, and a second demo does not duplicate it",
    () =>
      Effect.gen(function* () {
        const env = { DATA_DIR: yield* freshDataDir }
        const first = jsonOf(yield* exec("npx", ["--no-install", "marginctl", "demo", "--json"], env))
        assert.isTrue(first.created)
        const second = jsonOf(yield* exec("npx", ["--no-install", "marginctl", "demo", "--json"], env))
        assert.isFalse(second.created)
        assert.strictEqual(second.workspace_id, first.workspace_id)
        assert.strictEqual(second.catalog_items, 200)
      }).pipe(Effect.scoped),
    { timeout: 600_000 }
  )

  it.effect(
    "the launcher runs under the machine's own node too (re-running itself on Node 24 when that is older)",
    () =>
      Effect.gen(function* () {
        // The PATH without node_modules/.bin: `node` is the machine's (Node 20 on these machines).
        const path = (process.env.PATH ?? "")
          .split(":")
          .filter((dir) => !dir.includes("node_modules"))
          .join(":")
        const outcome = yield* exec("node", ["apps/cli/bin/marginctl.js", "--version"], { PATH: path })
        assert.strictEqual(outcome.code, 0, outcome.stderr)
        assert.match(outcome.stdout, /^marginctl v\d+\.\d+\.\d+/)
      })
  )
})
