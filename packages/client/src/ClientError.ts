import { Schema } from "effect"

/** The request got no answer: the service could not be reached, the connection broke, the URL is not valid. */
export class TransportError extends Schema.TaggedError<TransportError>()("TransportError", {
  message: Schema.String
}) {}

/**
 * An answer outside the contract: an error body without the envelope (a proxy's page), an
 * unknown code, or a success body the API definition refuses. `status` is null when the answer
 * was a success whose body did not decode.
 */
export class UnexpectedResponse extends Schema.TaggedError<UnexpectedResponse>()("UnexpectedResponse", {
  status: Schema.NullOr(Schema.Int),
  message: Schema.String
}) {}

/** The client refused to send the request: an argument fails the API definition (a limit of 0, a cursor it never handed out). */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", {
  message: Schema.String
}) {}

/** One attempt took longer than the client's `timeout` and was abandoned (retried first when the call is repeatable). */
export class TimeoutError extends Schema.TaggedError<TimeoutError>()("TimeoutError", {
  message: Schema.String,
  timeoutMillis: Schema.Int
}) {}
