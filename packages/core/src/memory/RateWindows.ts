import { decide, minuteMs, windowStart } from "../access/FixedWindow.ts"
import type { BudgetDecision } from "../access/RateBudget.ts"

interface Window {
  readonly start: number
  readonly count: number
}

/**
 * Counts one request in the fixed minute that contains `now` (windows start at multiples of
 * 60 s since the epoch) and answers whether it fits under `limit`.
 */
export const consumeIn = (
  previous: Window | undefined,
  now: number,
  limit: number
): readonly [BudgetDecision, Window] => {
  const start = windowStart(now, minuteMs)
  const count = previous !== undefined && previous.start === start ? previous.count + 1 : 1
  return [decide(count, limit, start, minuteMs, now), { start, count }]
}

/** Fixed one-minute request windows per key, in process memory, exact for this process. */
export interface RateWindows {
  /** Counts one request of `key` at `now` and answers whether it fits under the limit. */
  readonly consume: (key: string, now: number) => BudgetDecision
  /** Makes the count of `key` in the window of `now` at least `count` (what a shared store counted). */
  readonly raise: (key: string, now: number, count: number) => void
  /** Keys held: those seen in the current window (earlier windows are dropped as a new one opens). */
  readonly size: () => number
}

/**
 * The windows of `limit` requests a minute. Each call is one synchronous step, so a plain map is
 * updated atomically. The first call in a new minute drops every earlier window: they count for
 * nothing, and the map holds the keys of one minute, not every key ever seen.
 */
export const makeRateWindows = (limit: number): RateWindows => {
  const windows = new Map<string, Window>()
  let current = Number.NEGATIVE_INFINITY
  const startOf = (now: number) => {
    const start = windowStart(now, minuteMs)
    if (start > current) {
      current = start
      for (const [key, window] of windows) if (window.start < start) windows.delete(key)
    }
    return start
  }
  return {
    consume: (key, now) => {
      startOf(now)
      const [decision, window] = consumeIn(windows.get(key), now, limit)
      windows.set(key, window)
      return decision
    },
    raise: (key, now, count) => {
      const start = startOf(now)
      const known = windows.get(key)
      if (known !== undefined && known.start > start) return
      windows.set(key, { start, count: known?.start === start ? Math.max(known.count, count) : count })
    },
    size: () => windows.size
  }
}
