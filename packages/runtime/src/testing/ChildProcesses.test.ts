import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawnProgram } from "./ChildProcesses.ts"

const script = "console.log('to stdout'); console.error('to stderr')"

it.live("a child's output comes through pipes by default", () =>
  Effect.scoped(
    Effect.gen(function* () {
      const child = yield* spawnProgram("echo", process.execPath, ["-e", script], {})
      yield* child.exited
      const output = yield* child.output
      assert.include(output, "to stdout")
      assert.include(output, "to stderr")
    })
  )
)

it.live("with an output file, stdout and stderr go to the file and output reads it back", () =>
  Effect.scoped(
    Effect.gen(function* () {
      const directory = mkdtempSync(join(tmpdir(), "child-output-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(directory, { recursive: true })))
      const outputFile = join(directory, "echo.log")
      const child = yield* spawnProgram("echo", process.execPath, ["-e", script], {}, { outputFile })
      yield* child.waitForOutput(/to stderr/)
      const status = yield* child.exited
      assert.strictEqual(status.code, 0)
      const written = readFileSync(outputFile, "utf8")
      assert.include(written, "to stdout")
      assert.include(written, "to stderr")
      assert.strictEqual(yield* child.output, written)
    })
  )
)
