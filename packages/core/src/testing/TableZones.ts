import type { OffsetAt } from "../schedules/ScheduleSlots.ts"

const hour = 3_600_000
const minute = 60_000

/**
 * Zones written out by hand as the offsets they change to and when (epoch ms), for the slot tests:
 * core reads no zone database. The figures are the IANA database's for 2026 (checked against Intl
 * by the adapter's test, IntlZoneRules.test.ts).
 */
export interface TableZone {
  readonly name: string
  /** The offset before the first change. */
  readonly initial: number
  readonly changes: ReadonlyArray<{ readonly at: number; readonly offset: number }>
}

export const offsetOfTable =
  (zone: TableZone): OffsetAt =>
  (instant) => {
    let offset = zone.initial
    for (const change of zone.changes) if (instant >= change.at) offset = change.offset
    return offset
  }

export const fixedZone = (name: string, offset: number): TableZone => ({ name, initial: offset, changes: [] })

export const berlin2026: TableZone = {
  name: "Europe/Berlin",
  initial: hour,
  changes: [
    { at: Date.UTC(2026, 2, 29, 1), offset: 2 * hour },
    { at: Date.UTC(2026, 9, 25, 1), offset: hour }
  ]
}

export const newYork2026: TableZone = {
  name: "America/New_York",
  initial: -5 * hour,
  changes: [
    { at: Date.UTC(2026, 2, 8, 7), offset: -4 * hour },
    { at: Date.UTC(2026, 10, 1, 6), offset: -5 * hour }
  ]
}

/** Half an hour of daylight saving time. */
export const lordHowe2026: TableZone = {
  name: "Australia/Lord_Howe",
  initial: 11 * hour,
  changes: [
    { at: Date.UTC(2026, 3, 4, 15), offset: 10 * hour + 30 * minute },
    { at: Date.UTC(2026, 9, 3, 15, 30), offset: 11 * hour }
  ]
}

export const tableZones2026: ReadonlyArray<TableZone> = [
  fixedZone("UTC", 0),
  fixedZone("Asia/Kolkata", 5 * hour + 30 * minute),
  fixedZone("Pacific/Kiritimati", 14 * hour),
  fixedZone("Pacific/Pago_Pago", -11 * hour),
  berlin2026,
  newYork2026,
  lordHowe2026
]

/** ZoneRules over the zones above (by name), for the use-case tests: core reads no zone database. */
export const tableZoneRules = (zones: ReadonlyArray<TableZone> = tableZones2026) => {
  const byName = new Map(zones.map((zone) => [zone.name.toLowerCase(), zone]))
  return {
    canonical: (name: string): string | null => byName.get(name.toLowerCase())?.name ?? null,
    offsetAt: (zone: string, instant: number): number => {
      const found = byName.get(zone.toLowerCase())
      return found === undefined ? 0 : offsetOfTable(found)(instant)
    }
  }
}
