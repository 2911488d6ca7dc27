import { Effect, Layer } from "effect"
import { type BudgetDecision, RateBudget } from "../ports/RateBudget.ts"

export const windowMs = 60_000
/** The contract's default: 60 requests per minute (spec section 8). */
export const defaultLimit = 60

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
  const start = Math.floor(now / windowMs) * windowMs
  const count = previous !== undefined && previous.start === start ? previous.count + 1 : 1
  const decision: BudgetDecision =
    count <= limit
      ? { _tag: "Allowed", remaining: limit - count }
      : { _tag: "Limited", retryAfterSeconds: Math.ceil((start + windowMs - now) / 1000) }
  return [decision, { start, count }]
}

/** Exact fixed windows in process memory: one process only (the shared budget needs a shared store). */
export const layerWith = (options: { readonly limit: number }): Layer.Layer<RateBudget> =>
  Layer.effect(
    RateBudget,
    Effect.sync(() => {
      // Each consume is one synchronous step, so a plain map is updated atomically.
      const windows = new Map<string, Window>()
      return RateBudget.of({
        consume: (key, now) =>
          Effect.sync(() => {
            const [decision, window] = consumeIn(windows.get(key), now, options.limit)
            windows.set(key, window)
            return decision
          })
      })
    })
  )

export const layer: Layer.Layer<RateBudget> = layerWith({ limit: defaultLimit })
