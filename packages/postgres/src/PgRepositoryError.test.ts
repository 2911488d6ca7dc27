import { assert, describe, it } from "@effect/vitest"
import { RepositoryError } from "@margin/core/kernel/Errors"
import { Cause, Effect, Exit, Schema } from "effect"
import { SqlError, UnknownError } from "effect/sql/SqlError"
import { asRepository, asRepositoryWith } from "./PgRepositoryError.ts"

const sqlError = new SqlError({ reason: new UnknownError({ cause: new Error("connection lost"), message: "lost" }) })
const schemaError = Effect.runSync(Effect.flip(Schema.decodeUnknownEffect(Schema.Number)("nope")))
const named = new RepositoryError({ operation: "Inner.call", message: "inner" })

/** asRepositoryWith(op, then) answers what flatMap(then) then asRepository(op) answer, whatever happens. */
const both = <A, B>(
  statement: Effect.Effect<A, SqlError>,
  then: (value: A) => Effect.Effect<B, SqlError | Schema.SchemaError | RepositoryError>
) =>
  Effect.gen(function* () {
    const fused = yield* Effect.exit(asRepositoryWith("Things.get", then)(statement))
    const composed = yield* Effect.exit(Effect.flatMap(statement, then).pipe(asRepository("Things.get")))
    return { fused, composed }
  })

describe("asRepositoryWith", () => {
  it.effect("passes the statement's value to `then` and answers its value", () =>
    Effect.gen(function* () {
      const { fused, composed } = yield* both(Effect.succeed([1, 2]), (rows) => Effect.succeed(rows.length))
      assert.deepStrictEqual(fused, Exit.succeed(2))
      assert.deepStrictEqual(composed, fused)
    })
  )

  it.effect("names the statement's failure after the operation, and never calls `then`", () =>
    Effect.gen(function* () {
      let called = false
      const { fused, composed } = yield* both(Effect.fail(sqlError), () => {
        called = true
        return Effect.void
      })
      assert.isFalse(called)
      assert.deepStrictEqual(
        fused,
        Exit.fail(new RepositoryError({ operation: "Things.get", message: sqlError.message }))
      )
      assert.deepStrictEqual(composed, fused)
    })
  )

  it.effect("names a failure of `then` (a row that does not decode) the same way", () =>
    Effect.gen(function* () {
      const { fused, composed } = yield* both(Effect.succeed([]), () => Effect.fail(schemaError))
      assert.deepStrictEqual(
        fused,
        Exit.fail(new RepositoryError({ operation: "Things.get", message: schemaError.message }))
      )
      assert.deepStrictEqual(composed, fused)
    })
  )

  it.effect("lets a RepositoryError already named by a nested call through as it is", () =>
    Effect.gen(function* () {
      const { fused, composed } = yield* both(Effect.succeed([]), () => Effect.fail(named))
      assert.deepStrictEqual(fused, Exit.fail(named))
      assert.deepStrictEqual(composed, fused)
    })
  )

  it.effect("leaves defects and interruptions alone", () =>
    Effect.gen(function* () {
      const defect = yield* both(Effect.die("boom"), () => Effect.void)
      assert.isTrue(Exit.isFailure(defect.fused) && Cause.hasDies(defect.fused.cause))
      assert.deepStrictEqual(defect.composed, defect.fused)
      const interrupted = yield* both(Effect.interrupt, () => Effect.void)
      assert.isTrue(Exit.isFailure(interrupted.fused) && Cause.hasInterruptsOnly(interrupted.fused.cause))
    })
  )

  it.effect("runs `then`'s effect when it is not done yet (a schema decoding, say)", () =>
    Effect.gen(function* () {
      const { fused, composed } = yield* both(Effect.succeed("7"), (text) =>
        Effect.andThen(Effect.yieldNow, Effect.succeed(Number(text)))
      )
      assert.deepStrictEqual(fused, Exit.succeed(7))
      assert.deepStrictEqual(composed, fused)
    })
  )
})
