/** Exponential backoff for outbox retries. */
export interface RetryBackoff {
  /** Delay after the first failed attempt. */
  readonly baseDelayMs: number
  /** No delay grows beyond this. */
  readonly maxDelayMs: number
}

/**
 * The delay before attempt `attempts + 1`: base * 2^(attempts - 1), capped, then "equal jitter":
 * half of it fixed, half scaled by `jitter` in [0, 1], so that writers failing together do not
 * come back together.
 */
export const retryDelay = (backoff: RetryBackoff, attempts: number, jitter: number): number => {
  const exponent = Math.max(0, attempts - 1)
  const delay = Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** Math.min(exponent, 30))
  const half = delay / 2
  return Math.round(half + half * Math.min(1, Math.max(0, jitter)))
}
