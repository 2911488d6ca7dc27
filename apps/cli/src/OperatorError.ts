import { Schema } from "effect"

/** A command cannot do what it was asked (unknown id, input the domain refuses); `message` says why. */
export class OperatorError extends Schema.TaggedError<OperatorError>()("OperatorError", {
  message: Schema.String
}) {}
