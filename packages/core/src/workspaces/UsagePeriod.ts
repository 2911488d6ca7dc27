/** The plan's usage period: the calendar month (UTC) that contains an instant. */
export interface UsagePeriod {
  /** The first millisecond of the month. */
  readonly start: number
  /** The first millisecond of the next month (exclusive). */
  readonly end: number
}

export const usagePeriod = (now: number): UsagePeriod => {
  const at = new Date(now)
  const year = at.getUTCFullYear()
  const month = at.getUTCMonth()
  return { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) }
}
