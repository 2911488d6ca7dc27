import { Effect, Option } from "effect"
import { type RepositoryError, ResourceNotFound, TransitionConflict } from "./Errors.ts"
import type { IdempotentRepeat, Outcome, Transitioned } from "./Outcome.ts"

/** How a state machine command of a use case can fail: no such resource, not from this state, or the store failed. */
export type CommandError = ResourceNotFound | TransitionConflict | RepositoryError

/** What a use case goes on with: the command took effect now, or had already. */
export type Settled<A> = Transitioned<A> | IdempotentRepeat<A>

/**
 * Turns a repository's answer to `update(id, decide)` into the use case's result: no row is
 * `ResourceNotFound`, a machine `Conflict` is `TransitionConflict`; the rest goes on.
 */
export const settle = <A extends { readonly status: string }>(
  resource: string,
  id: string,
  found: Option.Option<Outcome<A>>
): Effect.Effect<Settled<A>, ResourceNotFound | TransitionConflict> => {
  if (Option.isNone(found)) return Effect.fail(new ResourceNotFound({ resource, id }))
  const outcome = found.value
  return outcome._tag === "Conflict"
    ? Effect.fail(new TransitionConflict({ resource, id, status: outcome.current.status, reason: outcome.reason }))
    : Effect.succeed(outcome)
}

/** The entity a settled command leaves, and whether the command was a repeat. */
export const settledValue = <A>(settled: Settled<A>): { readonly value: A; readonly idempotent: boolean } =>
  settled._tag === "Transitioned"
    ? { value: settled.after, idempotent: false }
    : { value: settled.current, idempotent: true }
