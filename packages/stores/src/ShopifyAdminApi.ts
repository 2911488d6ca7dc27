import { StoreUnavailable } from "@margin/core/writeback/StoreWriteBack"
import { Clock, Duration, Effect, Redacted, Schema } from "effect"
import { Headers, HttpClient, type HttpClientError, HttpClientRequest, type HttpClientResponse } from "effect/http"
import { ShopifyConfig } from "./ShopifyConfig.ts"
import { makeShopifyThrottle } from "./ShopifyThrottle.ts"

/** Shopify refused the call for good (bad token, unknown variant, invalid input): retrying cannot help. */
export class ShopifyRefused extends Schema.TaggedError<ShopifyRefused>()("ShopifyRefused", {
  message: Schema.String
}) {}

/** The call was not executed because of rate limits; it is safe to send again after `retryAfterMillis`. */
class ShopifyThrottled extends Schema.TaggedError<ShopifyThrottled>()("ShopifyThrottled", {
  retryAfterMillis: Schema.Number
}) {}

/** One GraphQL operation: the document, its variables and the schema of its `data`. */
export interface ShopifyOperation<A> {
  /** Keys the cost estimate used for pacing: the same operation costs the same every time. */
  readonly name: string
  readonly document: string
  readonly variables: Readonly<Record<string, unknown>>
  readonly data: Schema.ConstraintDecoder<A>
}

/** Where one shop's Admin GraphQL API answers, and with which token. */
export interface ShopifyEndpoint {
  readonly shop: string
  readonly url: string
  readonly accessToken: Redacted.Redacted
}

const GraphqlError = Schema.Struct({
  message: Schema.String,
  extensions: Schema.optionalKey(Schema.Struct({ code: Schema.optionalKey(Schema.String) }))
})

const QueryCost = Schema.Struct({
  requestedQueryCost: Schema.Finite,
  throttleStatus: Schema.Struct({
    maximumAvailable: Schema.Finite,
    currentlyAvailable: Schema.Finite,
    restoreRate: Schema.Finite
  })
})

/** What every Admin GraphQL answer looks like; `data` is decoded by the operation once errors are ruled out. */
const Envelope = Schema.Struct({
  data: Schema.optionalKey(Schema.Unknown),
  errors: Schema.optionalKey(Schema.Array(GraphqlError)),
  extensions: Schema.optionalKey(Schema.Struct({ cost: Schema.optionalKey(QueryCost) }))
})
type Envelope = typeof Envelope.Type

// Top-level error codes that mean "try again later"; every other code is a refusal.
const transientCodes: ReadonlySet<string> = new Set(["INTERNAL_SERVER_ERROR", "SERVICE_UNAVAILABLE", "TIMEOUT"])

const retryAfterMillis = (response: HttpClientResponse.HttpClientResponse): number => {
  const seconds = Number(response.headers["retry-after"])
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 1000
}

const unavailable = (message: string) => new StoreUnavailable({ message: `Shopify: ${message}` })

export interface ShopifyAdminApi {
  /**
   * Sends one operation: paced on the shop's rate-limit bucket, THROTTLED answers waited out and sent again
   * (a throttled call was not executed), everything transient (5xx, timeout, network) reported as
   * StoreUnavailable and everything permanent as ShopifyRefused. A call that timed out is never re-sent here:
   * it may have been executed, and only the caller knows whether repeating it is harmless.
   */
  readonly execute: <A>(
    endpoint: ShopifyEndpoint,
    operation: ShopifyOperation<A>
  ) => Effect.Effect<A, ShopifyRefused | StoreUnavailable>
}

export const makeShopifyAdminApi = Effect.gen(function* () {
  const config = yield* ShopifyConfig
  const client = yield* HttpClient.HttpClient
  const throttle = yield* makeShopifyThrottle
  // The access token header is secret: keep it out of spans and logs like Authorization.
  const redactedNames = [...(yield* Headers.CurrentRedactedNames), "x-shopify-access-token"]
  const maxPacingWaitMillis = Duration.toMillis(config.maxPacingWait)

  const pace = Effect.fnUntraced(function* (endpoint: ShopifyEndpoint, operation: string) {
    const waitMillis = yield* throttle.reserve(endpoint.shop, operation, yield* Clock.currentTimeMillis)
    if (waitMillis > maxPacingWaitMillis) {
      return yield* unavailable(`rate limit of ${endpoint.shop} needs a pause of ${waitMillis} ms before ${operation}`)
    }
    if (waitMillis > 0) {
      yield* Effect.logDebug("pacing on Shopify's rate limit").pipe(
        Effect.annotateLogs({ shop: endpoint.shop, operation, waitMillis })
      )
      yield* Effect.sleep(Duration.millis(waitMillis))
    }
  })

  const post = (endpoint: ShopifyEndpoint, operation: ShopifyOperation<unknown>) =>
    HttpClientRequest.post(endpoint.url).pipe(
      HttpClientRequest.acceptJson,
      HttpClientRequest.setHeader("X-Shopify-Access-Token", Redacted.value(endpoint.accessToken)),
      HttpClientRequest.bodyJsonUnsafe({ query: operation.document, variables: operation.variables }),
      client.execute,
      Effect.flatMap((response) => readEnvelope(response, operation.name)),
      Effect.timeout(config.requestTimeout),
      Effect.catchTag("TimeoutError", () =>
        Effect.fail(unavailable(`no answer to ${operation.name} within ${Duration.format(config.requestTimeout)}`))
      ),
      Effect.catchTag("HttpClientError", (error: HttpClientError.HttpClientError) =>
        Effect.fail(unavailable(`${operation.name} failed: ${error.message}`))
      ),
      Effect.provideService(Headers.CurrentRedactedNames, redactedNames)
    )

  const readEnvelope = Effect.fnUntraced(function* (
    response: HttpClientResponse.HttpClientResponse,
    operation: string
  ) {
    if (response.status === 429) return yield* new ShopifyThrottled({ retryAfterMillis: retryAfterMillis(response) })
    if (response.status >= 500) return yield* unavailable(`${operation} answered HTTP ${response.status}`)
    if (response.status >= 300) {
      const body = yield* response.text
      return yield* new ShopifyRefused({
        message: `Shopify refused ${operation} with HTTP ${response.status}: ${body.slice(0, 200)}`
      })
    }
    const json = yield* response.json
    return yield* Schema.decodeUnknownEffect(Envelope)(json).pipe(
      Effect.mapError(() => unavailable(`${operation} answered a body that is not a GraphQL response`))
    )
  })

  const interpret = Effect.fnUntraced(function* <A>(
    endpoint: ShopifyEndpoint,
    operation: ShopifyOperation<A>,
    envelope: Envelope
  ) {
    const cost = envelope.extensions?.cost
    if (cost !== undefined) {
      yield* throttle.observe(endpoint.shop, operation.name, cost, yield* Clock.currentTimeMillis)
    }
    const errors = envelope.errors ?? []
    if (errors.some((error) => error.extensions?.code === "THROTTLED")) {
      // The bucket was just updated from this answer, so the pacing before the next try waits the right time.
      return yield* new ShopifyThrottled({ retryAfterMillis: cost === undefined ? 1000 : 0 })
    }
    if (errors.length > 0) {
      const message = `${operation.name} failed: ${errors.map((error) => error.message).join("; ")}`
      return yield* errors.some((error) => transientCodes.has(error.extensions?.code ?? ""))
        ? unavailable(message)
        : new ShopifyRefused({ message: `Shopify refused ${message}` })
    }
    return yield* Schema.decodeUnknownEffect(operation.data)(envelope.data).pipe(
      Effect.mapError(() => unavailable(`${operation.name} answered data of an unexpected shape`))
    )
  })

  const attempt = <A>(endpoint: ShopifyEndpoint, operation: ShopifyOperation<A>) =>
    pace(endpoint, operation.name).pipe(
      Effect.andThen(post(endpoint, operation)),
      Effect.flatMap((envelope) => interpret(endpoint, operation, envelope))
    )

  const withThrottleRetries = <A>(
    endpoint: ShopifyEndpoint,
    operation: ShopifyOperation<A>,
    retriesLeft: number
  ): Effect.Effect<A, ShopifyRefused | StoreUnavailable> =>
    attempt(endpoint, operation).pipe(
      Effect.catchTag("ShopifyThrottled", (throttled) =>
        retriesLeft <= 0
          ? Effect.fail(unavailable(`${operation.name} still throttled after ${config.maxThrottleRetries} retries`))
          : throttled.retryAfterMillis > maxPacingWaitMillis
            ? Effect.fail(unavailable(`${operation.name} throttled for ${throttled.retryAfterMillis} ms`))
            : Effect.logDebug("THROTTLED by Shopify, sending again").pipe(
                Effect.annotateLogs({ shop: endpoint.shop, operation: operation.name, retriesLeft }),
                Effect.andThen(Effect.sleep(Duration.millis(throttled.retryAfterMillis))),
                Effect.andThen(withThrottleRetries(endpoint, operation, retriesLeft - 1))
              )
      )
    )

  const execute = <A>(endpoint: ShopifyEndpoint, operation: ShopifyOperation<A>) =>
    withThrottleRetries(endpoint, operation, config.maxThrottleRetries)

  return { execute } satisfies ShopifyAdminApi
})
