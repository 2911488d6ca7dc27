import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { mcpMain, restMain, spawnNode, spawnProgram, takenPort } from "@margin/runtime/testing/ChildProcesses"
import { Effect } from "effect"

/**
 * A port another program holds: each entry point says so in one line that names the setting to
 * change, exits non-zero, and has opened no database, seeded nothing and printed no token first.
 */

/** A DATA_DIR that does not exist yet, in a directory the embedded PostgreSQL's account may enter. */
const dataDir = Effect.acquireRelease(
  Effect.sync(() => {
    const dir = mkdtempSync(join(tmpdir(), "margin-port-in-use-"))
    chmodSync(dir, 0o755)
    return dir
  }),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
).pipe(Effect.map((dir) => join(dir, "data")))

const expectOneClearLine = (output: string, expected: string) => {
  const lines = output.split("\n").filter((line) => line.includes("cannot start"))
  assert.strictEqual(lines.length, 1, output)
  assert.include(lines[0], `margin-service cannot start: ${expected}`, output)
}

const processTimeout = { timeout: 120_000 }

/** A server entry point on a taken port (`portSetting`): one line, exit 1, its database never opened. */
const refusedAlone = (name: string, main: string, portSetting: "PORT" | "MCP_PORT") =>
  Effect.gen(function* () {
    const port = yield* takenPort
    const data = yield* dataDir
    const server = yield* spawnNode(name, main, { HOST: "127.0.0.1", [portSetting]: String(port), DATA_DIR: data })
    const status = yield* server.exited
    const output = yield* server.output
    assert.strictEqual(status.code, 1, output)
    expectOneClearLine(output, `port ${port} is in use; set ${portSetting}`)
    assert.isFalse(existsSync(data), "the embedded database was opened")
  }).pipe(Effect.scoped)

describe("a port already in use", () => {
  it.effect(
    "npm start: the port is checked before the demo is seeded; one line naming PORT, exit non-zero, no token",
    () =>
      Effect.gen(function* () {
        const port = yield* takenPort
        const data = yield* dataDir
        const start = yield* spawnProgram("npm start", "npm", ["start", "--silent"], {
          HOST: "127.0.0.1",
          PORT: String(port),
          DATA_DIR: data
        })
        const status = yield* start.exited
        const output = yield* start.output
        assert.notStrictEqual(status.code, 0, output)
        expectOneClearLine(output, `port ${port} is in use; set PORT`)
        assert.notInclude(output, "pck_")
        assert.notMatch(output, /Seeded|Found "Demo Store"/)
        assert.isFalse(existsSync(data), "the embedded database was opened")
      }).pipe(Effect.scoped),
    processTimeout
  )

  it.effect(
    "the REST server alone (npm run serve): one line naming PORT, exit 1, no database opened",
    () => refusedAlone("rest", restMain, "PORT"),
    processTimeout
  )

  it.effect(
    "the MCP server alone: one line naming MCP_PORT, exit 1, no database opened",
    () => refusedAlone("mcp", mcpMain, "MCP_PORT"),
    processTimeout
  )
})
