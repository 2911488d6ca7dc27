import { Effect, Layer } from "effect"
import { defaultRequestsPerMinute, RateBudget } from "../access/RateBudget.ts"
import { makeRateWindows } from "./RateWindows.ts"

/** Exact fixed windows in process memory: one process only (the shared budget needs a shared store). */
export const layerWith = (options: { readonly limit: number }): Layer.Layer<RateBudget> =>
  Layer.effect(
    RateBudget,
    Effect.sync(() => {
      const windows = makeRateWindows(options.limit)
      return RateBudget.of({ consume: (key, now) => Effect.sync(() => windows.consume(key, now)) })
    })
  )

export const layer: Layer.Layer<RateBudget> = layerWith({ limit: defaultRequestsPerMinute })
