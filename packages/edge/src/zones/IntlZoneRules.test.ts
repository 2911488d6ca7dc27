import { assert, describe, it } from "@effect/vitest"
import { latestSlot, nextSlot } from "@margin/core/schedules/ScheduleSlots"
import { offsetOfTable, tableZones2026 } from "@margin/core/testing/TableZones"
import { canonical, offsetAt } from "./IntlZoneRules.ts"

describe("IntlZoneRules", () => {
  it("knows IANA names, case-insensitively, under their canonical spelling, and nothing else", () => {
    assert.strictEqual(canonical("Europe/Berlin"), "Europe/Berlin")
    assert.strictEqual(canonical("europe/berlin"), "Europe/Berlin")
    assert.strictEqual(canonical("UTC"), "UTC")
    assert.isNotNull(canonical("America/Argentina/Buenos_Aires"))
    for (const wrong of ["Mars/Olympus", "", "+05:00", "Europe/Berlin ", "../etc/passwd", "CEST2"]) {
      assert.isNull(canonical(wrong), wrong)
    }
  })

  // The hand-written tables core's slot tests use are the database's: every hour of 2026 agrees.
  it.each(tableZones2026.map((zone) => [zone.name, zone] as const))("%s agrees with the core test table", (_, zone) => {
    const table = offsetOfTable(zone)
    for (let instant = Date.UTC(2026, 0, 1); instant < Date.UTC(2027, 0, 1); instant += 30 * 60_000) {
      assert.strictEqual(offsetAt(zone.name, instant), table(instant), new Date(instant).toISOString())
    }
  })

  it("puts slots where the zone's clock says, across a change of offset", () => {
    const berlin = (instant: number) => offsetAt("Europe/Berlin", instant)
    const rule = { cadence: "daily", weekday: null, hour: 2 } as const
    assert.strictEqual(nextSlot(rule, Date.UTC(2026, 2, 28, 12), berlin), Date.UTC(2026, 2, 29, 1))
    assert.strictEqual(latestSlot(rule, Date.UTC(2026, 9, 25, 1, 30), berlin), Date.UTC(2026, 9, 25, 0))
  })
})
