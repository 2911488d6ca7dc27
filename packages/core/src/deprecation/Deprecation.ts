import { Result, Schema } from "effect"

/**
 * A deprecated v1 operation (docs/contract.md, "Versioning and deprecation"): which one, when owners and admins are told, and the
 * earliest day it may be removed. Dates are calendar days (`YYYY-MM-DD`), read as midnight UTC.
 */
export interface Deprecation {
  /** The endpoint identifier in the HttpApi, e.g. `listRuns`. */
  readonly operation: string
  /** The day of the notice: the Deprecation header's date and the day `marginctl deprecation notify` runs. */
  readonly notice: string
  /** The earliest day the operation may be removed: at least `minimumNoticeMonths` after `notice`. */
  readonly sunset: string
  /** What to call instead, in words (`GET /api/v1/runs?status=…`). */
  readonly replacement?: string
  /** An http(s) page that explains the change (the Link header, rel="deprecation"). */
  readonly link?: string
}

/** The spec's promise: a deprecated operation keeps working this many calendar months after its notice. */
export const minimumNoticeMonths = 6

/** The registry of deprecated operations is not valid; `problems` says each reason. */
export class DeprecationsInvalid extends Schema.TaggedError<DeprecationsInvalid>()("DeprecationsInvalid", {
  message: Schema.String,
  problems: Schema.Array(Schema.String)
}) {}

const calendarDate = /^(\d{4})-(\d{2})-(\d{2})$/

/** Midnight UTC of a `YYYY-MM-DD` day, in epoch milliseconds; undefined when it is no such day. */
export const calendarDayStart = (text: string): number | undefined => {
  const parts = calendarDate.exec(text)
  if (parts === null) return undefined
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])]
  const at = Date.UTC(year, month - 1, day)
  const back = new Date(at)
  // Date.UTC rolls 2026-02-30 over to March: a day that does not round-trip does not exist.
  return back.getUTCFullYear() === year && back.getUTCMonth() === month - 1 && back.getUTCDate() === day
    ? at
    : undefined
}

/** `YYYY-MM-DD` of an instant (UTC). */
export const calendarDayOf = (at: number): string => new Date(at).toISOString().slice(0, 10)

/**
 * The same day `months` calendar months later, the month's last day when it has no such day
 * (2026-08-31 + 6 months = 2027-02-28): the earliest sunset of a notice.
 */
export const addCalendarMonths = (day: string, months: number): string | undefined => {
  const start = calendarDayStart(day)
  if (start === undefined) return undefined
  const date = new Date(start)
  const monthIndex = date.getUTCMonth() + months
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), monthIndex + 1, 0)).getUTCDate()
  return calendarDayOf(Date.UTC(date.getUTCFullYear(), monthIndex, Math.min(date.getUTCDate(), lastDay)))
}

/** `operation` must look like an endpoint identifier of the HttpApi (`listRuns`). */
const identifier = /^[A-Za-z][A-Za-z0-9]*$/

const problemsOf = (entry: Deprecation): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const name = entry.operation
  if (!identifier.test(name)) problems.push(`"${name}" is not an endpoint identifier (like listRuns)`)
  const notice = calendarDayStart(entry.notice)
  const sunset = calendarDayStart(entry.sunset)
  if (notice === undefined) problems.push(`${name}: notice "${entry.notice}" is not a YYYY-MM-DD day`)
  if (sunset === undefined) problems.push(`${name}: sunset "${entry.sunset}" is not a YYYY-MM-DD day`)
  if (notice !== undefined && sunset !== undefined) {
    const earliest = addCalendarMonths(entry.notice, minimumNoticeMonths) ?? entry.notice
    if (entry.sunset < earliest) {
      problems.push(
        `${name}: sunset ${entry.sunset} is less than ${minimumNoticeMonths} months after the notice ${entry.notice} (the earliest is ${earliest})`
      )
    }
  }
  if (entry.link !== undefined && !/^https?:\/\/[^\s]+$/.test(entry.link)) {
    problems.push(`${name}: link "${entry.link}" is not an http(s) URL`)
  }
  if (entry.replacement?.trim() === "") problems.push(`${name}: replacement is empty (leave it out instead)`)
  return problems
}

/**
 * Checks a registry of deprecations: each entry valid, each operation listed once. Answers the
 * entries by operation, or every problem at once.
 */
export const validateDeprecations = (
  entries: ReadonlyArray<Deprecation>
): Result.Result<ReadonlyMap<string, Deprecation>, DeprecationsInvalid> => {
  const problems = entries.flatMap(problemsOf)
  const byOperation = new Map<string, Deprecation>()
  for (const entry of entries) {
    if (byOperation.has(entry.operation)) problems.push(`${entry.operation} is listed twice`)
    byOperation.set(entry.operation, entry)
  }
  return problems.length === 0
    ? Result.succeed(byOperation)
    : Result.fail(
        new DeprecationsInvalid({ message: `invalid deprecated operations: ${problems.join("; ")}`, problems })
      )
}
