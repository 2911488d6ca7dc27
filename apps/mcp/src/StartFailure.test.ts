import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"

/**
 * The two MCP entry points as real processes whose start fails: like the REST server, each says
 * why in one line, `margin-service cannot start: <reason>` (a JSON log line), and exits 1. The
 * stdio server writes it on stderr and nothing on stdout, which carries the protocol.
 */

const stdioMain = new URL("./stdio.ts", import.meta.url).pathname
const httpMain = new URL("./main.ts", import.meta.url).pathname

interface Ended {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `script` with the Node of this test run in a bare environment (no inherited settings) plus `env`. */
const run = (script: string, env: Readonly<Record<string, string>>) =>
  Effect.callback<Ended>((resume) => {
    const child = execFile(
      process.execPath,
      [script],
      { env: { PATH: process.env.PATH ?? "", ...env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resume(Effect.succeed({ code: error === null ? 0 : (child.exitCode ?? null), stdout, stderr }))
    )
    child.stdin?.end()
  })

const scratch = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "margin-mcp-start-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

const logLine = Schema.decodeUnknownSync(Schema.fromJsonString(Schema.Struct({ message: Schema.String })))

/** The one line of `output`, a JSON log line: the start failure's message. */
const onlyMessage = (output: string): string => {
  const lines = output.split("\n").filter((line) => line !== "")
  assert.strictEqual(lines.length, 1, output)
  return logLine(lines[0]).message
}

describe("MCP entry points that cannot start", () => {
  it.effect("stdio without MARGIN_TOKEN: one line on stderr, nothing on stdout, exit 1, no database opened", () =>
    Effect.gen(function* () {
      const dataDir = join(yield* scratch, "data")
      const ended = yield* run(stdioMain, { DATA_DIR: dataDir })
      assert.strictEqual(ended.code, 1, ended.stderr)
      assert.strictEqual(ended.stdout, "")
      assert.strictEqual(
        onlyMessage(ended.stderr),
        "margin-service cannot start: invalid configuration: MARGIN_TOKEN: not set; give the API token (pck_...) the agent uses"
      )
      assert.isFalse(existsSync(dataDir), "the embedded database was opened")
    }).pipe(Effect.scoped)
  )

  it.effect("stdio with a token and a DATABASE_URL that is no URL: the database's own message", () =>
    Effect.gen(function* () {
      const ended = yield* run(stdioMain, { MARGIN_TOKEN: "pck_unknown", DATABASE_URL: "not a url" })
      assert.strictEqual(ended.code, 1, ended.stderr)
      assert.strictEqual(ended.stdout, "")
      assert.match(onlyMessage(ended.stderr), /^margin-service cannot start: DATABASE_URL /)
    })
  )

  it.effect("the MCP server alone with a bad MCP_PORT: one line, exit 1", () =>
    Effect.gen(function* () {
      const ended = yield* run(httpMain, { MCP_PORT: "abc" })
      assert.strictEqual(ended.code, 1, ended.stdout + ended.stderr)
      assert.strictEqual(ended.stderr, "")
      assert.match(onlyMessage(ended.stdout), /^margin-service cannot start: invalid configuration: MCP_PORT: /)
    })
  )
})
