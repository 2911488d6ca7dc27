import { makeRateWindows } from "@margin/core/memory/RateWindows"
import { type BudgetDecision, RateBudget } from "@margin/core/ports/RateBudget"
import { Effect, Metric } from "effect"
import * as ServiceMetrics from "./ServiceMetrics.ts"

export interface FallbackRateBudgetOptions<E extends { readonly message: string }> {
  /** The shared store's name in logs: `redis`, `postgres`. */
  readonly store: string
  readonly limit: number
  /** Counts the request in the shared store; fails when the store cannot count it. */
  readonly consume: (key: string, now: number) => Effect.Effect<BudgetDecision, E>
}

/** Why the store could not count, for the log: the message, else its cause's, else the error's tag. */
export const reasonOf = (error: { readonly message: string; readonly _tag?: string; readonly cause?: unknown }) => {
  if (error.message !== "") return error.message
  if (error.cause instanceof Error && error.cause.message !== "") return error.cause.message
  return error._tag ?? "unknown failure"
}

/**
 * A shared rate budget that never lets a request through uncounted: while the shared store
 * (Redis, PostgreSQL) cannot count, this process counts in its own exact memory windows (core's
 * RateWindows, as MemoryRateBudget does), so each process enforces the limit on its own share of the
 * traffic. The memory windows go on from what the process knew when the store failed: each
 * answer of the store sets the key's memory count to at least the store's count, and a recovery
 * keeps them, so an outage in the middle of a window, or a store that fails again within it, does
 * not start the window over. The outage and the recovery are logged once each, every fallback
 * decision is counted (`margin_rate_budget_fallback_total`) and `margin_rate_budget_degraded` is 1
 * meanwhile.
 */
export const make = <E extends { readonly message: string }>(
  options: FallbackRateBudgetOptions<E>
): Effect.Effect<RateBudget["Service"]> =>
  Effect.sync(() => {
    const windows = makeRateWindows(options.limit)
    let degraded = false

    const inMemory = (key: string, now: number) => Effect.sync(() => windows.consume(key, now))

    const fellBack = (key: string, now: number, error: E) =>
      Effect.gen(function* () {
        if (!degraded) {
          degraded = true
          yield* Effect.logWarning(
            `rate budget: ${options.store} cannot count requests; this process counts them in memory until it recovers`
          ).pipe(Effect.annotateLogs("reason", reasonOf(error)))
          yield* Metric.update(ServiceMetrics.rateBudgetDegraded, 1)
        }
        yield* Metric.update(ServiceMetrics.rateBudgetFallbacks, 1)
        return yield* inMemory(key, now)
      })

    const recovered = Effect.gen(function* () {
      degraded = false
      yield* Effect.logInfo(`rate budget: ${options.store} counts requests again`)
      yield* Metric.update(ServiceMetrics.rateBudgetDegraded, 0)
    })

    return RateBudget.of({
      consume: (key, now) =>
        options.consume(key, now).pipe(
          Effect.matchEffect({
            onFailure: (error) => fellBack(key, now, error),
            // A continuation, run when the store has answered: no Effect.suspend needed around it.
            onSuccess: (decision) => {
              // Kept for an outage: the store's count (at least the limit when it refused).
              windows.raise(key, now, decision._tag === "Allowed" ? options.limit - decision.remaining : options.limit)
              return degraded ? Effect.as(recovered, decision) : Effect.succeed(decision)
            }
          })
        )
    })
  })
