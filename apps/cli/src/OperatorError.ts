import { Schema } from "effect"
import { FailureKind } from "./FailureKind.ts"

/**
 * A command cannot do what it was asked (unknown id, input the domain refuses); `message` says why,
 * `kind` what sort of failure it is (its exit status); refused when left out.
 */
export class OperatorError extends Schema.TaggedError<OperatorError>()("OperatorError", {
  message: Schema.String,
  kind: Schema.optionalKey(FailureKind)
}) {}
