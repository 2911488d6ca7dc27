import { type DeliveryConfig, defaultDeliveryConfig, WriteBackDelivery } from "@margin/core/writeback/WriteBackDelivery"
import { Config, Duration, Effect, Layer, Schema } from "effect"

const PositiveInt = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(1)))

/** A duration from the environment ("10 minutes"), refused when zero or negative. */
export const PositiveDuration = Schema.DurationFromString.pipe(
  Schema.check(Schema.makeFilter((duration) => Duration.isGreaterThan(duration, Duration.zero) || "must be positive"))
)

const millis = (name: string, fallback: number) =>
  Config.schema(PositiveDuration, name).pipe(Config.map(Duration.toMillis), Config.withDefault(fallback))

/**
 * How write-backs are delivered, from the environment, the same in every process that delivers
 * (the REST app's opportunistic delivery and its in-process worker, and each `apps/worker`):
 * - WRITE_BACK_MAX_ATTEMPTS (default 8): a store that stays unavailable this many times fails the
 *   write-back (`write_back_failed` and an alert);
 * - WRITE_BACK_RETRY_BASE (default "5 seconds") and WRITE_BACK_RETRY_MAX (default "30 minutes"):
 *   the exponential backoff between attempts, with jitter;
 * - WRITE_BACK_LEASE (default "60 seconds"): how long a claim keeps other workers off a row; a
 *   worker that died mid-delivery holds its rows this long. Keep it above the slowest store's
 *   delivery timeout (Shopify: SHOPIFY_DELIVERY_TIMEOUT, 45 s), see docs/stores.md.
 */
export const deliveryConfig: Config.Config<DeliveryConfig> = Config.all({
  maxAttempts: Config.schema(PositiveInt, "WRITE_BACK_MAX_ATTEMPTS").pipe(
    Config.withDefault(defaultDeliveryConfig.maxAttempts)
  ),
  baseDelayMs: millis("WRITE_BACK_RETRY_BASE", defaultDeliveryConfig.baseDelayMs),
  maxDelayMs: millis("WRITE_BACK_RETRY_MAX", defaultDeliveryConfig.maxDelayMs),
  leaseMs: millis("WRITE_BACK_LEASE", defaultDeliveryConfig.leaseMs)
})

/** WriteBackDelivery configured by `deliveryConfig`. */
export const layer = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* deliveryConfig
    yield* Effect.logDebug("write-back delivery settings").pipe(Effect.annotateLogs({ ...config }))
    return WriteBackDelivery.layerWith(config)
  })
)
