import { Input, type OperationCaller } from "@margin/core/operations/OperationInput"
import { Caller, operationCaller } from "@margin/edge/auth"
import { Effect } from "effect"
import type { VariantSchema } from "effect/schema"

/**
 * The query parameters of an operation's REST endpoint: the query variant of each query field of
 * its catalogue entry's input (numbers as decimal text). An endpoint takes its path parameters
 * (`entry.input.path`), its query (this) and its body (`entry.input.body`) from its entry; only
 * the parts an operation has are named, so that an endpoint without a path parameter or a query
 * asks the typed client for none.
 */
export const restQuery = <const Query extends VariantSchema.Struct.Fields>(entry: {
  readonly input: { readonly query: VariantSchema.Struct<Query> }
}) => Input.extract(entry.input.query, "query")

/**
 * A REST handler from an operation's binding: the request's caller at the `api` door, the use
 * case, then the answer's JSON.
 */
export const answer =
  <I, A, E, J>(run: (input: I, caller: OperationCaller) => Effect.Effect<A, E>, toJson: (a: A) => J) =>
  (input: I): Effect.Effect<J, E, Caller> =>
    Caller.use((caller) => run(input, operationCaller(caller, "api"))).pipe(Effect.map(toJson))
