import { Schema } from "effect"

/**
 * What an alert is about:
 * - `negative_margin`: the price is below the cost; every sale loses money.
 * - `below_floor`: the price is below the floor (the policy's minimum margin or the item's min_price / MAP).
 * - `missing_cost`: no cost is recorded; margins cannot be computed, only the price limits apply.
 * - `cost_changed`: the cost differs from the one the previous run saw.
 * - `price_drift`: the connected store sells at another price than the catalog says.
 * - `floor_above_ceiling`: the floor is above max_price; no price satisfies both, so none is recommended.
 * - `write_back_failed`: the store write-back gave up (raised by the write-back, not by the pricing engine).
 */
export const AlertKind = Schema.Literals([
  "negative_margin",
  "below_floor",
  "missing_cost",
  "cost_changed",
  "price_drift",
  "floor_above_ceiling",
  "write_back_failed"
])
export type AlertKind = typeof AlertKind.Type

export const AlertSeverity = Schema.Literals(["info", "warning", "critical"])
export type AlertSeverity = typeof AlertSeverity.Type

/** An alert as the pricing engine finds it, before it is stored with ids and a status. */
export const AlertFinding = Schema.Struct({
  kind: AlertKind,
  severity: AlertSeverity,
  message: Schema.String
})
export type AlertFinding = typeof AlertFinding.Type
