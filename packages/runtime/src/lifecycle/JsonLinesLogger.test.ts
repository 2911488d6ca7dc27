import { assert, describe, it } from "@effect/vitest"
import { Effect, Logger, References } from "effect"
import { jsonLinesLogger } from "./JsonLinesLogger.ts"

/** Past the flush delay the tests give the logger. */
const flushed = Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 30)))

describe("JsonLinesLogger", () => {
  it.effect("lines logged close together leave in one write, as JSON objects one a line", () =>
    Effect.gen(function* () {
      const writes: Array<string> = []
      const logged = Effect.gen(function* () {
        yield* Effect.logInfo("first").pipe(Effect.annotateLogs({ request_id: "r-1" }))
        yield* Effect.logWarning("second")
        yield* Effect.logInfo("third")
      }).pipe(Effect.provide(Logger.layer([jsonLinesLogger((text) => writes.push(text), { flushAfterMs: 5 })])))

      yield* logged
      assert.deepStrictEqual(writes, [], "nothing is written at once")
      yield* flushed
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
      yield* flushed
      assert.strictEqual(writes.length, 2, "later lines are written again")
    })
  )

  it.effect("past 1,000 waiting lines, they are written at once", () =>
    Effect.gen(function* () {
      const writes: Array<string> = []
      yield* Effect.forEach(
        Array.from({ length: 1_000 }, (_, index) => index),
        (index) => Effect.logInfo(`line ${index}`),
        {
          discard: true
        }
      ).pipe(Effect.provide(Logger.layer([jsonLinesLogger((text) => writes.push(text), { flushAfterMs: 60_000 })])))
      assert.strictEqual(writes.length, 1)
      assert.strictEqual(writes[0]?.trimEnd().split("\n").length, 1_000)
    })
  )

  it.effect("any line is formatted as Logger.formatJson formats it, plain or not", () =>
    Effect.gen(function* () {
      const writes: Array<string> = []
      const formatted: Array<string> = []
      const logged = [
        Effect.logInfo("plain").pipe(Effect.annotateLogs({ status: 200, caller: null, ok: true, path: "/x" })),
        Effect.logInfo("nested").pipe(Effect.annotateLogs({ detail: { a: [1, 2] }, big: 12n })),
        Effect.logWarning("two", "parts"),
        Effect.logError("with a cause", new Error("boom")),
        Effect.logInfo("not finite").pipe(Effect.annotateLogs({ ratio: Number.NaN })),
        Effect.logInfo("in a span").pipe(Effect.annotateLogs({ status: 201 }), Effect.withLogSpan("work")),
        Effect.logDebug(42),
        Effect.logInfo("no annotations"),
        Effect.logInfo('quoted "text"\n').pipe(Effect.annotateLogs({ "odd key": 'a "b"', empty: "" }))
      ]
      yield* Effect.forEach(logged, (log) => log, { discard: true }).pipe(
        Effect.provideService(References.MinimumLogLevel, "Debug"),
        Effect.provide(
          Logger.layer([
            jsonLinesLogger((text) => writes.push(text), { flushAfterMs: 5 }),
            Logger.map(Logger.formatJson, (line) => {
              formatted.push(line)
            })
          ])
        )
      )
      yield* flushed
      assert.deepStrictEqual(writes, [`${formatted.join("\n")}\n`])
    })
  )
})
