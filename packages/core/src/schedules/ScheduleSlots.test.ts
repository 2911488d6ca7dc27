import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import {
  berlin2026,
  fixedZone,
  lordHowe2026,
  newYork2026,
  offsetOfTable,
  type TableZone
} from "../testing/TableZones.ts"
import { instantOfWallTime, latestSlot, nextSlot, type SlotRule, weekdayOfDay } from "./ScheduleSlots.ts"
import { weekdays } from "./SyncSchedule.ts"

const hour = 3_600_000
const day = 24 * hour
const utc = (text: string) => Date.parse(text)
const iso = (instant: number | null) => (instant === null ? null : new Date(instant).toISOString())

const daily = (h: number): SlotRule => ({ cadence: "daily", weekday: null, hour: h })

describe("ScheduleSlots", () => {
  it("counts weekdays from 1970-01-01, a Thursday", () => {
    assert.strictEqual(weekdayOfDay(0), "thursday")
    assert.strictEqual(weekdayOfDay(4), "monday")
    assert.strictEqual(weekdayOfDay(-1), "wednesday")
    assert.strictEqual(weekdayOfDay(Math.floor(utc("2026-12-07T12:00:00Z") / day)), "monday")
  })

  // [zone, rule, after, expected next slot (UTC), expected latest slot at or before `after`]
  const table: ReadonlyArray<readonly [TableZone, SlotRule, string, string, string]> = [
    [fixedZone("UTC", 0), daily(3), "2026-12-07T02:59:59.999Z", "2026-12-07T03:00:00.000Z", "2026-12-06T03:00:00.000Z"],
    [fixedZone("UTC", 0), daily(3), "2026-12-07T03:00:00.000Z", "2026-12-08T03:00:00.000Z", "2026-12-07T03:00:00.000Z"],
    [fixedZone("UTC", 0), daily(0), "2026-12-31T23:00:00.000Z", "2027-01-01T00:00:00.000Z", "2026-12-31T00:00:00.000Z"],
    [
      fixedZone("Asia/Kolkata", 5.5 * hour),
      daily(6),
      "2026-12-07T00:00:00.000Z",
      "2026-12-07T00:30:00.000Z",
      "2026-12-06T00:30:00.000Z"
    ],
    // 14 hours ahead: the local day is already the 8th.
    [
      fixedZone("Pacific/Kiritimati", 14 * hour),
      daily(9),
      "2026-12-07T12:00:00.000Z",
      "2026-12-07T19:00:00.000Z",
      "2026-12-06T19:00:00.000Z"
    ],
    [
      fixedZone("Pacific/Pago_Pago", -11 * hour),
      daily(23),
      "2026-12-07T12:00:00.000Z",
      "2026-12-08T10:00:00.000Z",
      "2026-12-07T10:00:00.000Z"
    ],
    // Berlin, spring forward on 2026-03-29: 02:00-03:00 does not exist; 02:00 runs at 03:00 CEST.
    [berlin2026, daily(2), "2026-03-28T12:00:00.000Z", "2026-03-29T01:00:00.000Z", "2026-03-28T01:00:00.000Z"],
    [berlin2026, daily(2), "2026-03-29T01:00:00.000Z", "2026-03-30T00:00:00.000Z", "2026-03-29T01:00:00.000Z"],
    [berlin2026, daily(3), "2026-03-28T12:00:00.000Z", "2026-03-29T01:00:00.000Z", "2026-03-28T02:00:00.000Z"],
    [berlin2026, daily(1), "2026-03-28T12:00:00.000Z", "2026-03-29T00:00:00.000Z", "2026-03-28T00:00:00.000Z"],
    // Berlin, fall back on 2026-10-25: 02:00-03:00 happens twice; 02:00 runs once, the first time.
    [berlin2026, daily(2), "2026-10-24T12:00:00.000Z", "2026-10-25T00:00:00.000Z", "2026-10-24T00:00:00.000Z"],
    [berlin2026, daily(2), "2026-10-25T00:00:00.000Z", "2026-10-26T01:00:00.000Z", "2026-10-25T00:00:00.000Z"],
    [berlin2026, daily(2), "2026-10-25T01:30:00.000Z", "2026-10-26T01:00:00.000Z", "2026-10-25T00:00:00.000Z"],
    [berlin2026, daily(3), "2026-10-24T12:00:00.000Z", "2026-10-25T02:00:00.000Z", "2026-10-24T01:00:00.000Z"],
    // New York: spring forward at 02:00 local on 2026-03-08, fall back at 02:00 on 2026-11-01.
    [newYork2026, daily(2), "2026-03-07T12:00:00.000Z", "2026-03-08T07:00:00.000Z", "2026-03-07T07:00:00.000Z"],
    [newYork2026, daily(1), "2026-11-01T04:00:00.000Z", "2026-11-01T05:00:00.000Z", "2026-10-31T05:00:00.000Z"],
    [newYork2026, daily(1), "2026-11-01T05:00:00.000Z", "2026-11-02T06:00:00.000Z", "2026-11-01T05:00:00.000Z"],
    [newYork2026, daily(23), "2026-03-08T12:00:00.000Z", "2026-03-09T03:00:00.000Z", "2026-03-08T04:00:00.000Z"],
    // Lord Howe: half an hour. Spring forward 2026-10-04 02:00 -> 02:30; fall back 2026-04-05 02:00 -> 01:30.
    [lordHowe2026, daily(2), "2026-10-03T12:00:00.000Z", "2026-10-03T15:30:00.000Z", "2026-10-02T15:30:00.000Z"],
    [lordHowe2026, daily(1), "2026-04-04T12:00:00.000Z", "2026-04-04T14:00:00.000Z", "2026-04-03T14:00:00.000Z"],
    [lordHowe2026, daily(1), "2026-04-04T14:00:00.000Z", "2026-04-05T14:30:00.000Z", "2026-04-04T14:00:00.000Z"],
    // Weekly: Mondays at 06:00; 2026-12-07 is a Monday.
    [
      fixedZone("UTC", 0),
      { cadence: "weekly", weekday: "monday", hour: 6 },
      "2026-12-07T05:00:00.000Z",
      "2026-12-07T06:00:00.000Z",
      "2026-11-30T06:00:00.000Z"
    ],
    [
      fixedZone("UTC", 0),
      { cadence: "weekly", weekday: "monday", hour: 6 },
      "2026-12-07T06:00:00.000Z",
      "2026-12-14T06:00:00.000Z",
      "2026-12-07T06:00:00.000Z"
    ],
    [
      fixedZone("UTC", 0),
      { cadence: "weekly", weekday: "sunday", hour: 23 },
      "2026-12-07T06:00:00.000Z",
      "2026-12-13T23:00:00.000Z",
      "2026-12-06T23:00:00.000Z"
    ],
    // Sunday 00:30 in Kiritimati is Saturday 10:30 UTC.
    [
      fixedZone("Pacific/Kiritimati", 14 * hour),
      { cadence: "weekly", weekday: "sunday", hour: 0 },
      "2026-12-07T00:00:00.000Z",
      "2026-12-12T10:00:00.000Z",
      "2026-12-05T10:00:00.000Z"
    ],
    // Weekly across Berlin's spring forward: Sunday 2026-03-29 at 02:00 is 03:00 CEST.
    [
      berlin2026,
      { cadence: "weekly", weekday: "sunday", hour: 2 },
      "2026-03-23T00:00:00.000Z",
      "2026-03-29T01:00:00.000Z",
      "2026-03-22T01:00:00.000Z"
    ]
  ]

  it.each(table)("%s: %j after %s", (zone, rule, after, next, latest) => {
    const offsetAt = offsetOfTable(zone)
    assert.strictEqual(iso(nextSlot(rule, utc(after), offsetAt)), next)
    assert.strictEqual(iso(latestSlot(rule, utc(after), offsetAt)), latest)
  })

  it("has no slot when the schedule is off", () => {
    const off: SlotRule = { cadence: "off", weekday: null, hour: 3 }
    assert.isNull(nextSlot(off, 0, offsetOfTable(berlin2026)))
    assert.isNull(latestSlot(off, 0, offsetOfTable(berlin2026)))
  })

  it("maps a wall time in a gap forward by the gap, and an overlap to its first occurrence", () => {
    const berlin = offsetOfTable(berlin2026)
    assert.strictEqual(iso(instantOfWallTime(Date.UTC(2026, 2, 29, 2, 30), berlin)), "2026-03-29T01:30:00.000Z")
    assert.strictEqual(iso(instantOfWallTime(Date.UTC(2026, 9, 25, 2, 30), berlin)), "2026-10-25T00:30:00.000Z")
    assert.strictEqual(iso(instantOfWallTime(Date.UTC(2026, 9, 25, 3, 0), berlin)), "2026-10-25T02:00:00.000Z")
  })

  // Zones with one change of offset at a random instant: offsets within UTC-12..UTC+14 in quarter
  // hours, changes of 15 minutes to 2 hours either way.
  const quarter = 15 * 60_000
  const zoneArbitrary = fc
    .record({
      initial: fc.integer({ min: -48, max: 56 }),
      shift: fc.constantFrom(-8, -4, -2, -1, 1, 2, 4, 8),
      at: fc.integer({ min: Date.UTC(2026, 0, 1) / quarter, max: Date.UTC(2027, 0, 1) / quarter })
    })
    .map(
      ({ initial, shift, at }): TableZone => ({
        name: "Test/Zone",
        initial: initial * quarter,
        changes: [{ at: at * quarter, offset: (initial + shift) * quarter }]
      })
    )
  const ruleArbitrary: fc.Arbitrary<SlotRule> = fc.oneof(
    fc.integer({ min: 0, max: 23 }).map(daily),
    fc
      .record({ weekday: fc.constantFrom(...weekdays), hour: fc.integer({ min: 0, max: 23 }) })
      .map(({ weekday, hour }): SlotRule => ({ cadence: "weekly", weekday, hour }))
  )
  const instantArbitrary = fc.integer({ min: Date.UTC(2025, 11, 1), max: Date.UTC(2027, 1, 1) })

  it("next and latest slots bracket every instant, with no slot between them", () => {
    fc.assert(
      fc.property(zoneArbitrary, ruleArbitrary, instantArbitrary, (zone, rule, t) => {
        const offsetAt = offsetOfTable(zone)
        const next = nextSlot(rule, t, offsetAt)
        const latest = latestSlot(rule, t, offsetAt)
        assert.isNotNull(next)
        assert.isNotNull(latest)
        if (next === null || latest === null) return
        assert.isAbove(next, t)
        assert.isAtMost(latest, t)
        // The slot before the next one is the latest; the slot after the latest is the next.
        assert.strictEqual(latestSlot(rule, next - 1, offsetAt), latest)
        assert.strictEqual(nextSlot(rule, latest, offsetAt), next)
        assert.strictEqual(latestSlot(rule, next, offsetAt), next)
        const period = rule.cadence === "daily" ? day : 7 * day
        // A change of offset moves a slot by at most its size (2 hours).
        assert.isAtMost(next - latest, period + 2 * hour)
        assert.isAtLeast(next - latest, period - 2 * hour)
      }),
      { numRuns: 2000 }
    )
  })

  it("a slot falls at its hour on the zone's wall clock, on its weekday, or just after a gap", () => {
    fc.assert(
      fc.property(zoneArbitrary, ruleArbitrary, instantArbitrary, (zone, rule, t) => {
        const offsetAt = offsetOfTable(zone)
        const slot = nextSlot(rule, t, offsetAt)
        if (slot === null) return assert.fail("no slot")
        const wall = slot + offsetAt(slot)
        const wanted = Math.floor(wall / day) * day + rule.hour * hour
        // In a gap the wall clock reads the hour plus the gap; otherwise exactly the hour.
        const late = wall - wanted
        const gap = Math.max(0, offsetAt(slot) - offsetAt(slot - day))
        assert.isTrue(late === 0 || (late > 0 && late <= gap), `wall ${new Date(wall).toISOString()}`)
        if (rule.cadence === "weekly") assert.strictEqual(weekdayOfDay(Math.floor(wanted / day)), rule.weekday)
      }),
      { numRuns: 2000 }
    )
  })

  it("in a fixed zone, daily slots are exactly one day apart", () => {
    fc.assert(
      fc.property(fc.integer({ min: -48, max: 56 }), fc.integer({ min: 0, max: 23 }), instantArbitrary, (q, h, t) => {
        const offsetAt = offsetOfTable(fixedZone("Fixed", q * quarter))
        const first = nextSlot(daily(h), t, offsetAt)
        if (first === null) return assert.fail("no slot")
        assert.strictEqual(nextSlot(daily(h), first, offsetAt), first + day)
      })
    )
  })
})
