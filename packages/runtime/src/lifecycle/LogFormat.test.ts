import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit } from "effect"
import { logFormatConfig } from "./LogFormat.ts"

const formatOf = (terminal: boolean, env: Record<string, string>) =>
  Effect.exit(logFormatConfig(terminal).parse(ConfigProvider.fromEnv({ env })))

/** A process that logs one line through `Logging.stdout`, as the servers do; its stdout. */
const loggingScript = `
import { Effect } from "effect"
import * as Logging from ${JSON.stringify(new URL("./Logging.ts", import.meta.url).pathname)}
await Effect.runPromise(Effect.logInfo("hello from the log").pipe(Effect.annotateLogs({ request_id: "r-1" }), Effect.provide(Logging.stdout)))
`

const logged = (env: Record<string, string>, terminal: boolean): string => {
  const node = [process.execPath, "--input-type=module", "-e", loggingScript]
  const options = { env: { ...process.env, LOG_FORMAT: "", ...env }, encoding: "utf8" as const }
  if (!terminal) return execFileSync(node[0] ?? "node", node.slice(1), options)
  // util-linux script(1) runs it on a pseudo-terminal: stdout is a TTY there.
  const quoted = node.map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(" ")
  return execFileSync("script", ["-qec", quoted, "/dev/null"], options)
}

const isJsonLine = (text: string): boolean => {
  const line = text.trim()
  return line.startsWith("{") && Reflect.get(Object(JSON.parse(line)), "message") === "hello from the log"
}

describe("LogFormat", () => {
  it.effect("LOG_FORMAT decides; unset, a terminal gets pretty lines and anything else JSON lines", () =>
    Effect.gen(function* () {
      for (const [terminal, env, expected] of [
        [true, {}, "pretty"],
        [false, {}, "json"],
        [true, { LOG_FORMAT: "json" }, "json"],
        [false, { LOG_FORMAT: "pretty" }, "pretty"],
        [false, { LOG_FORMAT: "json" }, "json"]
      ] as const) {
        assert.deepStrictEqual(yield* formatOf(terminal, env), Exit.succeed(expected), JSON.stringify([terminal, env]))
      }
      assert.isTrue(Exit.isFailure(yield* formatOf(true, { LOG_FORMAT: "xml" })))
    })
  )

  it("a process logs JSON lines into a pipe, pretty lines with LOG_FORMAT=pretty", () => {
    assert.isTrue(isJsonLine(logged({}, false)))
    const pretty = logged({ LOG_FORMAT: "pretty" }, false)
    assert.isFalse(pretty.trim().startsWith("{"), pretty)
    assert.match(pretty, /INFO/)
    assert.include(pretty, "hello from the log")
    assert.include(pretty, "request_id")
  })

  it.skipIf(!existsSync("/usr/bin/script"))("on a terminal, pretty lines; LOG_FORMAT=json keeps JSON lines", () => {
    const onTerminal = logged({}, true)
    assert.isFalse(onTerminal.trim().startsWith("{"), onTerminal)
    assert.include(onTerminal, "hello from the log")
    assert.isTrue(isJsonLine(logged({ LOG_FORMAT: "json" }, true)))
  })
})
