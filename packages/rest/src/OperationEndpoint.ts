import type { OperationCaller } from "@margin/core/operations/OperationInput"
import { Caller, operationCaller } from "@margin/edge/auth"
import { Effect } from "effect"

/**
 * A REST handler from an operation's binding: the request's caller at the `api` door, the use
 * case, then the answer's JSON.
 */
export const answer =
  <I, A, E, J>(run: (input: I, caller: OperationCaller) => Effect.Effect<A, E>, toJson: (a: A) => J) =>
  (input: I): Effect.Effect<J, E, Caller> =>
    Caller.use((caller) => run(input, operationCaller(caller, "api"))).pipe(Effect.map(toJson))
