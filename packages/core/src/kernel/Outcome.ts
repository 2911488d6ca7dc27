/**
 * What a state machine answers for one command on one entity.
 * Only use cases turn a `Conflict` into a failure; machines just return data.
 */
export type Outcome<A> = Transitioned<A> | IdempotentRepeat<A> | Conflict<A>

export interface Transitioned<A> {
  readonly _tag: "Transitioned"
  readonly before: A
  readonly after: A
}

export interface IdempotentRepeat<A> {
  readonly _tag: "IdempotentRepeat"
  readonly current: A
}

export interface Conflict<A> {
  readonly _tag: "Conflict"
  readonly current: A
  readonly reason: string
}

export const transitioned = <A>(before: A, after: A): Outcome<A> => ({ _tag: "Transitioned", before, after })
export const idempotentRepeat = <A>(current: A): Outcome<A> => ({ _tag: "IdempotentRepeat", current })
export const conflict = <A>(current: A, reason: string): Outcome<A> => ({ _tag: "Conflict", current, reason })

/** The entity as it stands after the outcome. */
export const current = <A>(outcome: Outcome<A>): A =>
  outcome._tag === "Transitioned" ? outcome.after : outcome.current
