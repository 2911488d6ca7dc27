import { RateBudget } from "@margin/core/access/RateBudget"
import { RateBudgetStore } from "@margin/core/access/RateBudgetStore"
import { type RepositoryError, reasonOf } from "@margin/core/kernel/Errors"
import { makeRateWindows } from "@margin/core/memory/RateWindows"
import { ServiceMetrics } from "@margin/edge/telemetry"
import { Effect, Layer, Metric } from "effect"

/**
 * Both series at 0 from the start (the "exported at 0" convention): a scrape shows them before the
 * first outage, also on a server without Redis, and `increase()` sees that outage's first fallback.
 */
const countedFromZero = Effect.andThen(
  Metric.update(ServiceMetrics.rateBudgetFallbacks, 0),
  Metric.update(ServiceMetrics.rateBudgetDegraded, 0)
)

/**
 * A shared rate budget that never lets a request through uncounted: while the shared store
 * (Redis, PostgreSQL) cannot count, this process counts in its own exact memory windows (core's
 * RateWindows, as MemoryRateBudget does). Each process admits only its share of the limit there
 * (`limit / processes`, rounded down, at least 1; `processes` is RATE_LIMIT_PROCESSES), so that the
 * processes together stay within the limit rather than each handing out all of it: a store that is
 * slow rather than down sends every process here at once. The memory windows go on from what the
 * process knew when the store failed: each answer of the store sets the key's memory count to at
 * least the store's count, and a recovery keeps them, so an outage in the middle of a window, or a
 * store that fails again within it, does not start the window over. The outage and the recovery
 * are logged once each, every fallback decision is counted (`margin_rate_budget_fallback_total`)
 * and `margin_rate_budget_degraded` is 1 meanwhile.
 */
export const make = (
  store: RateBudgetStore["Service"],
  options: { readonly processes: number } = { processes: 1 }
): Effect.Effect<RateBudget["Service"]> =>
  Effect.sync(() => {
    const windows = makeRateWindows(fallbackLimit(store.limit, options.processes))
    let degraded = false

    const inMemory = (key: string, now: number) => Effect.sync(() => windows.consume(key, now))

    const fellBack = (key: string, now: number, error: RepositoryError) =>
      Effect.gen(function* () {
        if (!degraded) {
          degraded = true
          yield* Effect.logWarning(
            `rate budget: ${store.name} cannot count requests; this process counts them in memory until it recovers`
          ).pipe(Effect.annotateLogs("reason", reasonOf(error)))
          yield* Metric.update(ServiceMetrics.rateBudgetDegraded, 1)
        }
        yield* Metric.update(ServiceMetrics.rateBudgetFallbacks, 1)
        return yield* inMemory(key, now)
      })

    const recovered = Effect.gen(function* () {
      degraded = false
      yield* Effect.logInfo(`rate budget: ${store.name} counts requests again`)
      yield* Metric.update(ServiceMetrics.rateBudgetDegraded, 0)
    })

    return RateBudget.of({
      consume: (key, now) =>
        store.consume(key, now).pipe(
          Effect.matchEffect({
            onFailure: (error) => fellBack(key, now, error),
            // A continuation, run when the store has answered: no Effect.suspend needed around it.
            onSuccess: (decision) => {
              // Kept for an outage: the store's count (at least the limit when it refused).
              windows.raise(key, now, decision._tag === "Allowed" ? store.limit - decision.remaining : store.limit)
              return degraded ? Effect.as(recovered, decision) : Effect.succeed(decision)
            }
          })
        )
    })
  }).pipe(Effect.tap(() => countedFromZero))

/** What one of `processes` processes admits of `limit` while the store cannot count. */
export const fallbackLimit = (limit: number, processes: number): number =>
  Math.max(1, Math.floor(limit / Math.max(1, processes)))

/** The RateBudget of the store in context, with the memory fallback, for `processes` serving processes. */
export const layerWith = (options: { readonly processes: number }): Layer.Layer<RateBudget, never, RateBudgetStore> =>
  Layer.effect(
    RateBudget,
    RateBudgetStore.use((store) => make(store, options))
  )

/** The RateBudget of the store in context, with the memory fallback, for one serving process. */
export const layer: Layer.Layer<RateBudget, never, RateBudgetStore> = layerWith({ processes: 1 })
