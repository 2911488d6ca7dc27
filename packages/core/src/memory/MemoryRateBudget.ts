import { Effect, Layer } from "effect"
import { RateBudget } from "../ports/RateBudget.ts"
import { makeRateWindows } from "./RateWindows.ts"

/** The contract's default: 60 requests per minute (spec section 8). */
export const defaultLimit = 60

/** Exact fixed windows in process memory: one process only (the shared budget needs a shared store). */
export const layerWith = (options: { readonly limit: number }): Layer.Layer<RateBudget> =>
  Layer.effect(
    RateBudget,
    Effect.sync(() => {
      const windows = makeRateWindows(options.limit)
      return RateBudget.of({ consume: (key, now) => Effect.sync(() => windows.consume(key, now)) })
    })
  )

export const layer: Layer.Layer<RateBudget> = layerWith({ limit: defaultLimit })
