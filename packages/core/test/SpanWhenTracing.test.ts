import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, References } from "effect"
import { spanWhenTracing } from "../src/SpanWhenTracing.ts"

const currentSpanName = Effect.map(Effect.option(Effect.currentSpan), (span) =>
  Option.getOrNull(Option.map(span, (s) => s.name))
)

describe("spanWhenTracing", () => {
  it.effect("tracing on: the effect runs in a span of that name", () =>
    Effect.gen(function* () {
      const name = yield* spanWhenTracing("Use.case")(currentSpanName)
      assert.strictEqual(name, "Use.case")
    })
  )

  it.effect("tracing off: no span, the effect as it is", () =>
    Effect.gen(function* () {
      const name = yield* spanWhenTracing("Use.case")(currentSpanName).pipe(
        Effect.provideService(References.TracerEnabled, false)
      )
      assert.isNull(name)
      const value = yield* spanWhenTracing("Use.case")(Effect.succeed(42)).pipe(
        Effect.provideService(References.TracerEnabled, false)
      )
      assert.strictEqual(value, 42)
    })
  )
})
