import { type Cadence, type Weekday, weekdays } from "./SyncSchedule.ts"

/**
 * Slot arithmetic: when a schedule's slots fall, as instants (epoch ms). Pure: a zone is given as its
 * offset function (ZoneRules.offsetAt of one zone), `local = instant + offsetAt(instant)`.
 */
export type OffsetAt = (instant: number) => number

export interface SlotRule {
  readonly cadence: Cadence
  readonly weekday: Weekday | null
  readonly hour: number
}

const hourMs = 3_600_000
const dayMs = 24 * hourMs

/** The ISO weekday (Monday 0 .. Sunday 6 here) of a day counted from 1970-01-01, a Thursday. */
export const weekdayOfDay = (day: number): Weekday => weekdays[(((day + 3) % 7) + 7) % 7] ?? "monday"

/**
 * The instant a wall-clock time (ms since 1970-01-01 00:00 on the zone's calendar) happens. Real
 * zones change their offset at most once within two days, so the offsets a day before and a day after
 * are the only candidates. In an overlap (clocks set back: the time happens twice) the first
 * occurrence; in a gap (clocks set forward: the time never happens) the instant the same time after
 * the clock change would be, shifted forward by the gap (02:30 in a 02:00-03:00 gap is 03:30), as
 * Temporal's "compatible" disambiguation does.
 */
export const instantOfWallTime = (wall: number, offsetAt: OffsetAt): number => {
  const before = wall - offsetAt(wall - dayMs)
  const after = wall - offsetAt(wall + dayMs)
  const beforeHolds = before + offsetAt(before) === wall
  const afterHolds = after + offsetAt(after) === wall
  if (beforeHolds && afterHolds) return Math.min(before, after)
  if (beforeHolds) return before
  if (afterHolds) return after
  return before
}

const slotOfDay = (rule: SlotRule, day: number, offsetAt: OffsetAt): number | null =>
  rule.cadence === "off" || (rule.cadence === "weekly" && weekdayOfDay(day) !== rule.weekday)
    ? null
    : instantOfWallTime(day * dayMs + rule.hour * hourMs, offsetAt)

const localDay = (instant: number, offsetAt: OffsetAt): number => Math.floor((instant + offsetAt(instant)) / dayMs)

/** The first slot strictly after `instant`; null when the schedule is off. */
export const nextSlot = (rule: SlotRule, instant: number, offsetAt: OffsetAt): number | null => {
  if (rule.cadence === "off") return null
  const today = localDay(instant, offsetAt)
  for (let day = today - 1; day <= today + 8; day++) {
    const slot = slotOfDay(rule, day, offsetAt)
    if (slot !== null && slot > instant) return slot
  }
  return null
}

/** The last slot at or before `instant`; null when the schedule is off. */
export const latestSlot = (rule: SlotRule, instant: number, offsetAt: OffsetAt): number | null => {
  if (rule.cadence === "off") return null
  const today = localDay(instant, offsetAt)
  for (let day = today + 1; day >= today - 8; day--) {
    const slot = slotOfDay(rule, day, offsetAt)
    if (slot !== null && slot <= instant) return slot
  }
  return null
}
