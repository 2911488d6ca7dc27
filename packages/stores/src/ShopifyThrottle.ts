import { Effect, Ref } from "effect"

/**
 * Client-side model of Shopify's leaky bucket (GraphQL Admin API cost limits).
 * Every answer carries `extensions.cost.throttleStatus`; we remember it per shop and, before the
 * next call, reserve that call's expected cost (the `requestedQueryCost` Shopify last reported for
 * the same operation), waiting until the bucket has restored enough points. Reservations make
 * concurrent deliveries to one shop queue behind each other instead of all being THROTTLED.
 */
export interface Bucket {
  readonly maximum: number
  /** Points left at `at`; negative while reservations are waiting for points to restore. */
  readonly available: number
  /** Points restored per second. */
  readonly restoreRate: number
  readonly at: number
}

/** Shopify's `extensions.cost.throttleStatus`. */
export interface ThrottleStatus {
  readonly maximumAvailable: number
  readonly currentlyAvailable: number
  readonly restoreRate: number
}

/** Points in the bucket at `now`: restored since the last observation, never above the maximum. */
export const availableAt = (bucket: Bucket, now: number): number =>
  Math.min(bucket.maximum, bucket.available + (Math.max(0, now - bucket.at) / 1000) * bucket.restoreRate)

/** Takes `cost` points: how long to wait before sending, and the bucket once the points are spoken for. */
export const reserve = (
  bucket: Bucket,
  cost: number,
  now: number
): { readonly waitMillis: number; readonly bucket: Bucket } => {
  const available = availableAt(bucket, now) - cost
  const waitMillis =
    available >= 0 ? 0 : bucket.restoreRate > 0 ? Math.ceil((-available / bucket.restoreRate) * 1000) : Infinity
  return { waitMillis, bucket: { ...bucket, available, at: now } }
}

export const fromStatus = (status: ThrottleStatus, now: number): Bucket => ({
  maximum: status.maximumAvailable,
  available: status.currentlyAvailable,
  restoreRate: status.restoreRate,
  at: now
})

/** Cost assumed for an operation Shopify has not priced for us yet: a typical small mutation. */
export const defaultCost = 10

interface State {
  readonly buckets: ReadonlyMap<string, Bucket>
  readonly costs: ReadonlyMap<string, number>
}

export interface ShopifyThrottle {
  /** Reserves the operation's cost on the shop's bucket; answers the milliseconds to wait first (0 when unknown). */
  readonly reserve: (shop: string, operation: string, now: number) => Effect.Effect<number>
  /** Records what Shopify reported with an answer. */
  readonly observe: (
    shop: string,
    operation: string,
    cost: { readonly requestedQueryCost: number; readonly throttleStatus: ThrottleStatus },
    now: number
  ) => Effect.Effect<void>
}

export const makeShopifyThrottle: Effect.Effect<ShopifyThrottle> = Effect.map(
  Ref.make<State>({ buckets: new Map(), costs: new Map() }),
  (state) => ({
    reserve: (shop, operation, now) =>
      Ref.modify(state, (current) => {
        const bucket = current.buckets.get(shop)
        if (bucket === undefined) return [0, current]
        const reserved = reserve(bucket, current.costs.get(operation) ?? defaultCost, now)
        return [reserved.waitMillis, { ...current, buckets: new Map(current.buckets).set(shop, reserved.bucket) }]
      }),
    observe: (shop, operation, cost, now) =>
      Ref.update(state, (current) => ({
        buckets: new Map(current.buckets).set(shop, fromStatus(cost.throttleStatus, now)),
        costs: new Map(current.costs).set(operation, cost.requestedQueryCost)
      }))
  })
)
