import type { BudgetDecision } from "./RateBudget.ts"

/**
 * The arithmetic of a classic fixed window, shared by the Redis and PostgreSQL budgets and the
 * memory windows (memory/RateWindows): windows start at multiples of `windowMs` since the epoch,
 * every request in a window increments one counter, and a refused request is told how long until
 * the window resets.
 */
export const minuteMs = 60_000

export const windowStart = (now: number, windowMs: number): number => Math.floor(now / windowMs) * windowMs

/** `count` includes the request being decided. Retry-After is whole seconds, at least 1. */
export const decide = (count: number, limit: number, start: number, windowMs: number, now: number): BudgetDecision =>
  count <= limit
    ? { _tag: "Allowed", remaining: limit - count }
    : { _tag: "Limited", retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)) }
