import { assert, describe, it } from "@effect/vitest"
import { IdGenerator } from "@margin/core/kernel/IdGenerator"
import { idPrefixes } from "@margin/core/kernel/Ids"
import { idGeneratorContract } from "@margin/core/testing/IdGeneratorContract"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import * as PgIdGenerator from "./PgIdGenerator.ts"

idGeneratorContract("PgIdGenerator", PgIdGenerator.layer)

const zeros = new Uint8Array(10)
const suffix = /^[0-9a-hjkmnp-tv-z]{26}$/

describe("PgIdGenerator", () => {
  it("writes 10 base32 digits of time, then 16 of randomness", () => {
    assert.strictEqual(PgIdGenerator.formatId("rec", { time: 0, random: zeros }), `rec_${"0".repeat(26)}`)
    assert.strictEqual(
      PgIdGenerator.formatId("rec", { time: 33, random: zeros }),
      `rec_${"0".repeat(8)}11${"0".repeat(16)}`
    )
    const ones = new Uint8Array(10).fill(0xff)
    assert.strictEqual(PgIdGenerator.formatId("x", { time: 2 ** 48 - 1, random: ones }), `x_7${"z".repeat(25)}`)
  })

  it("ids drawn one after another increase in text order, whatever the clock does", () =>
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -3, max: 3 }), fc.uint8Array({ minLength: 10, maxLength: 10 })), {
          minLength: 2,
          maxLength: 60
        }),
        (steps) => {
          let now = 1_736_942_400_000
          let last: PgIdGenerator.Stamp | null = null
          const ids: Array<string> = []
          for (const [step, random] of steps) {
            now += step
            last = PgIdGenerator.nextStamp(last, now, random)
            ids.push(PgIdGenerator.formatId("itm", last))
          }
          for (let n = 1; n < ids.length; n++) {
            const [previous, next] = [ids[n - 1] ?? "", ids[n] ?? ""]
            if (!(previous < next)) return false
          }
          return ids.every((id) => suffix.test(id.slice(4)))
        }
      )
    ))

  it("a random part that would wrap around moves to the next millisecond", () => {
    const full = { time: 10, random: new Uint8Array(10).fill(0xff) }
    const fresh = new Uint8Array(10).fill(7)
    assert.deepStrictEqual(PgIdGenerator.nextStamp(full, 10, fresh), { time: 11, random: fresh })
  })

  it.effect("the time digits are the clock's milliseconds, so ids of later instants sort later", () =>
    Effect.gen(function* () {
      const ids = yield* IdGenerator
      yield* TestClock.setTime(1_000)
      const early = yield* ids.next("run")
      yield* TestClock.setTime(2_000)
      const late = yield* ids.next("run")
      assert.isTrue(early.startsWith(`${idPrefixes.run}_00000000z8`), early)
      assert.isTrue(late.startsWith(`${idPrefixes.run}_00000001yg`), late)
      assert.isTrue(early < late)
    }).pipe(Effect.provide(PgIdGenerator.layer))
  )
})
