import { Effect, Schema } from "effect"
import { HttpClientError } from "effect/http"
import { type AnyApiError, isApiError } from "./ApiError.ts"
import { InvalidRequest, TimeoutError, TransportError, UnexpectedResponse } from "./ClientError.ts"

/** Everything a call of the client can fail with: the contract's errors by `code`, or the client's own by `_tag`. */
export type MarginError = AnyApiError | TransportError | TimeoutError | UnexpectedResponse | InvalidRequest

export const isMarginError = (u: unknown): u is MarginError =>
  isApiError(u) ||
  u instanceof TransportError ||
  u instanceof TimeoutError ||
  u instanceof UnexpectedResponse ||
  u instanceof InvalidRequest

/**
 * What a failure of the derived client means to its caller. The API definition's own error
 * classes (core's and edge's) are the server's: the client never decodes one, since every answer
 * of 300 or more is read by `fromResponse` before the definition sees it, so one here is a defect.
 */
export const toMarginError = <E>(error: E): Effect.Effect<never, MarginError> => {
  if (isMarginError(error)) return Effect.fail(error)
  if (HttpClientError.isHttpClientError(error)) {
    const response = error.response
    if (response !== undefined) {
      return Effect.fail(new UnexpectedResponse({ status: response.status, message: error.message }))
    }
    return Effect.fail(
      error.reason._tag === "EncodeError"
        ? new InvalidRequest({ message: error.message })
        : new TransportError({ message: error.message })
    )
  }
  // A success body that failed to decode was made an UnexpectedResponse already (MarginClient):
  // what is left failed before sending.
  if (Schema.isSchemaError(error)) return Effect.fail(new InvalidRequest({ message: error.message }))
  return Effect.die(error)
}
