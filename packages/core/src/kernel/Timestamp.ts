import { Schema } from "effect"

/**
 * Instants in the domain are epoch milliseconds: cheap to compare and to store,
 * and rendered as ISO 8601 only at the edges.
 */
export const Timestamp = Schema.Number.pipe(Schema.check(Schema.isInt()))
export type Timestamp = typeof Timestamp.Type

const dayMs = 86_400_000
/** 10000-01-01T00:00:00.000Z: from here on the year has five digits and `Date` signs it. */
const fourDigitYearsEnd = 253_402_300_800_000

/** The character code of the decimal digit `n` (0-9). */
const digit = (n: number): number => 48 + n

/**
 * `new Date(at).toISOString()`, the same text, computed in arithmetic for whole milliseconds of
 * years 1970-9999 (the days to a civil date as in H. Hinnant's `civil_from_days`). Every list row
 * carries two or three instants: through `Date` they were a visible part of a list's CPU
 * (with JSON.stringify, about 0.55 against 0.24 µs each, measured alone); anything else goes through `Date` as before.
 */
export const toIso = (at: Timestamp): string => {
  if (!(at >= 0 && at < fourDigitYearsEnd) || !Number.isInteger(at)) return new Date(at).toISOString()
  const days = Math.floor(at / dayMs)
  const ofDay = at - days * dayMs
  // Days since 0000-03-01, in 400-year eras of 146,097 days; years start in March so that leap days come last.
  const shifted = days + 719_468
  const era = Math.floor(shifted / 146_097)
  const dayOfEra = shifted - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  const hours = Math.floor(ofDay / 3_600_000)
  const minutes = Math.floor((ofDay % 3_600_000) / 60_000)
  const seconds = Math.floor((ofDay % 60_000) / 1000)
  const millis = ofDay % 1000
  // One flat string of the 24 characters, where a template literal built a tree of pieces that
  // JSON.stringify then copies again.
  return String.fromCharCode(
    digit(Math.floor(year / 1000)),
    digit(Math.floor(year / 100) % 10),
    digit(Math.floor(year / 10) % 10),
    digit(year % 10),
    45, // -
    digit(Math.floor(month / 10)),
    digit(month % 10),
    45,
    digit(Math.floor(day / 10)),
    digit(day % 10),
    84, // T
    digit(Math.floor(hours / 10)),
    digit(hours % 10),
    58, // :
    digit(Math.floor(minutes / 10)),
    digit(minutes % 10),
    58,
    digit(Math.floor(seconds / 10)),
    digit(seconds % 10),
    46, // .
    digit(Math.floor(millis / 100)),
    digit(Math.floor(millis / 10) % 10),
    digit(millis % 10),
    90 // Z
  )
}
