import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { toIso } from "./Timestamp.ts"

const byDate = (at: number): string => new Date(at).toISOString()

describe("toIso", () => {
  it("writes the instants Date writes, at the edges of its fast range and around leap days", () => {
    const instants = [
      0,
      1,
      999,
      59_999,
      86_399_999,
      86_400_000,
      951_782_400_000, // 2000-02-29T00:00:00.000Z
      951_868_799_999, // 2000-02-29T23:59:59.999Z
      4_107_456_000_000, // 2100-02-28T00:00:00.000Z: no leap day in 2100
      4_107_542_400_000, // 2100-03-01
      1_790_000_000_123,
      253_402_300_799_999, // 9999-12-31T23:59:59.999Z
      // Outside the fast range: Date's own text.
      253_402_300_800_000,
      -1,
      -62_198_755_200_000,
      1.5
    ]
    for (const at of instants) assert.strictEqual(toIso(at), byDate(at), String(at))
    assert.strictEqual(toIso(951_782_400_000), "2000-02-29T00:00:00.000Z")
    assert.strictEqual(toIso(253_402_300_799_999), "9999-12-31T23:59:59.999Z")
  })

  it("agrees with Date for every whole millisecond Date can hold", () => {
    fc.assert(
      fc.property(fc.integer({ min: -8_640_000_000_000_000, max: 8_640_000_000_000_000 }), (at) => {
        assert.strictEqual(toIso(at), byDate(at))
      })
    )
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (at) => {
        assert.strictEqual(toIso(at), byDate(at))
      }),
      { numRuns: 20_000 }
    )
  })
})
