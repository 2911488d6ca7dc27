import { operationCatalogue } from "@margin/core/operations/OperationCatalogue"
import { Duration, Effect, Random } from "effect"
import { TimeoutError } from "./ClientError.ts"
import type { MarginError } from "./MarginError.ts"

/**
 * When the client sends a call again. Only a repeatable call is: one whose repeat leaves the
 * service as the first left it, which the operation catalogue says by its repeat shape (`read`,
 * `idempotent`; a run trigger becomes one with its `Idempotency-Key`). A reject (`conflict`) is
 * never sent twice: had the first arrived, the second would be a 409.
 */

export interface RetryPolicy {
  readonly maxRetries: number
  readonly timeoutMillis: number
}

const repeatable = new Set(
  operationCatalogue
    .filter((entry) => entry.repeat === "read" || entry.repeat === "idempotent")
    .map((entry) => entry.id)
)

/** Whether the operation (by its id, the client's method name) may be sent again as it is. */
export const isRepeatable = (operationId: string): boolean => repeatable.has(operationId)

/** A Retry-After longer than this is not waited for: the call fails with the error, which says when. */
export const maxRetryAfterSeconds = 60

const baseBackoffMillis = 500
const maxBackoffMillis = 8_000

/** Statuses of answers without the envelope (a proxy's page) that a repeat may get past. */
const gatewayStatuses = new Set([502, 503, 504])

/**
 * How long to wait before retry number `retry` (0 for the first) after `error`, `jitter` in [0, 1);
 * undefined when a repeat would not help. The service's Retry-After when it sent one, else
 * exponential backoff (500 ms doubling, at most 8 s) with half of it random, so that clients
 * refused together do not come back together.
 */
export const retryDelayOf = (error: MarginError, retry: number, jitter: number): Duration.Duration | undefined => {
  const backoff = () => {
    const ceiling = Math.min(maxBackoffMillis, baseBackoffMillis * 2 ** retry)
    return Duration.millis(Math.round(ceiling / 2 + (ceiling / 2) * jitter))
  }
  switch (error._tag) {
    case "ApiError":
      if (error.code !== "rate_limited" && error.code !== "service_unavailable") return undefined
      return error.retryAfter > maxRetryAfterSeconds ? undefined : Duration.seconds(error.retryAfter)
    case "TransportError":
    case "TimeoutError":
      return backoff()
    case "UnexpectedResponse":
      return error.status !== null && gatewayStatuses.has(error.status) ? backoff() : undefined
    case "InvalidRequest":
      return undefined
  }
}

/** The call with a timeout per attempt, and sent again by the policy when `repeatable`. */
export const attempting =
  (policy: RetryPolicy, repeatable: boolean) =>
  <A>(call: Effect.Effect<A, MarginError>): Effect.Effect<A, MarginError> => {
    const once = Effect.timeoutOrElse(call, {
      duration: Duration.millis(policy.timeoutMillis),
      orElse: () =>
        Effect.fail(
          new TimeoutError({
            message: `no answer within ${policy.timeoutMillis} ms`,
            timeoutMillis: policy.timeoutMillis
          })
        )
    })
    const attempt = (retry: number): Effect.Effect<A, MarginError> =>
      Effect.catch(once, (error) =>
        !repeatable || retry >= policy.maxRetries
          ? Effect.fail(error)
          : Effect.flatMap(Random.next, (jitter) => {
              const delay = retryDelayOf(error, retry, jitter)
              return delay === undefined ? Effect.fail(error) : Effect.andThen(Effect.sleep(delay), attempt(retry + 1))
            })
      )
    return attempt(0)
  }
