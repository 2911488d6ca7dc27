import { Config, Context, Duration, Layer, Option } from "effect"

/** How the Shopify adapter talks to the Admin GraphQL API. Every field has a production default. */
export interface ShopifyConfigShape {
  /** The pinned Admin API version: Shopify keeps a version stable for a year, then we move it on purpose. */
  readonly apiVersion: string
  /** Replaces `https://<shop>` (tests point it at the local fake); `None` in production. */
  readonly baseUrl: Option.Option<string>
  /** Each HTTP call gives up after this long; the outbox retries the delivery later. */
  readonly requestTimeout: Duration.Duration
  /** How many THROTTLED answers one call waits out before the delivery is reported unavailable. */
  readonly maxThrottleRetries: number
  /** Longest pause the pacing may take before one call; beyond it the delivery is reported unavailable. */
  readonly maxPacingWait: Duration.Duration
  /**
   * A whole delivery (read, pauses, write) ends by then. Keep it below the outbox lease, so a delivery
   * never outlives its claim and another worker never delivers the same row at the same time.
   */
  readonly deliveryTimeout: Duration.Duration
  /** How often a store sync asks whether its bulk operation has finished. */
  readonly bulkPollInterval: Duration.Duration
  /** How long one sync waits for its bulk operation; beyond it the next sync polls the same operation. */
  readonly bulkTimeout: Duration.Duration
}

export const shopifyDefaults: ShopifyConfigShape = {
  apiVersion: "2025-07",
  baseUrl: Option.none(),
  requestTimeout: Duration.seconds(10),
  maxThrottleRetries: 3,
  maxPacingWait: Duration.seconds(20),
  deliveryTimeout: Duration.seconds(45),
  bulkPollInterval: Duration.seconds(2),
  bulkTimeout: Duration.minutes(30)
}

export class ShopifyConfig extends Context.Service<ShopifyConfig, ShopifyConfigShape>()("margin/stores/ShopifyConfig") {
  /** From the environment: SHOPIFY_API_VERSION, SHOPIFY_BASE_URL, SHOPIFY_REQUEST_TIMEOUT, SHOPIFY_THROTTLE_RETRIES, SHOPIFY_MAX_PACING_WAIT, SHOPIFY_DELIVERY_TIMEOUT, SHOPIFY_BULK_POLL_INTERVAL, SHOPIFY_BULK_TIMEOUT. */
  static readonly layer = Layer.effect(
    ShopifyConfig,
    Config.all({
      apiVersion: Config.String("SHOPIFY_API_VERSION").pipe(Config.withDefault(shopifyDefaults.apiVersion)),
      baseUrl: Config.option(Config.String("SHOPIFY_BASE_URL")),
      requestTimeout: Config.Duration("SHOPIFY_REQUEST_TIMEOUT").pipe(
        Config.withDefault(shopifyDefaults.requestTimeout)
      ),
      maxThrottleRetries: Config.Int("SHOPIFY_THROTTLE_RETRIES").pipe(
        Config.withDefault(shopifyDefaults.maxThrottleRetries)
      ),
      maxPacingWait: Config.Duration("SHOPIFY_MAX_PACING_WAIT").pipe(Config.withDefault(shopifyDefaults.maxPacingWait)),
      deliveryTimeout: Config.Duration("SHOPIFY_DELIVERY_TIMEOUT").pipe(
        Config.withDefault(shopifyDefaults.deliveryTimeout)
      ),
      bulkPollInterval: Config.Duration("SHOPIFY_BULK_POLL_INTERVAL").pipe(
        Config.withDefault(shopifyDefaults.bulkPollInterval)
      ),
      bulkTimeout: Config.Duration("SHOPIFY_BULK_TIMEOUT").pipe(Config.withDefault(shopifyDefaults.bulkTimeout))
    })
  )

  /** The defaults with some fields replaced (tests). */
  static readonly layerWith = (overrides: Partial<ShopifyConfigShape>) =>
    Layer.succeed(ShopifyConfig, { ...shopifyDefaults, ...overrides })
}
