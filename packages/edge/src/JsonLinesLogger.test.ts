import { assert, describe, it } from "@effect/vitest"
import { Effect, Logger } from "effect"
import { jsonLinesLogger } from "./JsonLinesLogger.ts"

const nextTurn = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))

describe("JsonLinesLogger", () => {
  it.effect("the lines of one event-loop turn leave in one write, as JSON objects one a line", () =>
    Effect.gen(function* () {
      const writes: Array<string> = []
      const logged = Effect.gen(function* () {
        yield* Effect.logInfo("first").pipe(Effect.annotateLogs({ request_id: "r-1" }))
        yield* Effect.logWarning("second")
        yield* Effect.logInfo("third")
      }).pipe(Effect.provide(Logger.layer([jsonLinesLogger((text) => writes.push(text))])))

      yield* logged
      assert.deepStrictEqual(writes, [], "nothing is written before the turn ends")
      yield* nextTurn
      assert.strictEqual(writes.length, 1)
      const text = writes[0] ?? ""
      assert.isTrue(text.endsWith("\n"))
      const lines = text
        .trimEnd()
        .split("\n")
        .map((line): unknown => JSON.parse(line))
      assert.strictEqual(lines.length, 3)
      assert.deepInclude(lines[0], { message: "first", level: "INFO", annotations: { request_id: "r-1" } })
      assert.deepInclude(lines[1], { message: "second", level: "WARN" })

      yield* logged
      yield* nextTurn
      assert.strictEqual(writes.length, 2, "a later turn writes again")
    })
  )

  it.effect("a line is formatted as Logger.formatJson formats it", () =>
    Effect.gen(function* () {
      const writes: Array<string> = []
      const formatted: Array<string> = []
      yield* Effect.logInfo("same").pipe(
        Effect.annotateLogs({ status: 200 }),
        Effect.provide(
          Logger.layer([
            jsonLinesLogger((text) => writes.push(text)),
            Logger.map(Logger.formatJson, (line) => {
              formatted.push(line)
            })
          ])
        )
      )
      yield* nextTurn
      assert.deepStrictEqual(writes, [`${formatted[0]}\n`])
    })
  )
})
