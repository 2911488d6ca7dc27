import { Clock, Effect } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import { Transactor } from "../kernel/Transactor.ts"
import { type AuditEntry, AuditTrail } from "./AuditTrail.ts"

/** What one change did to one resource; the actor and the instant are added. */
export type AuditedEffect = Omit<AuditEntry, "actor" | "at">

/**
 * Built once per use case (it needs `AuditTrail` and `Transactor`): applies a change and records the
 * audit events `describe` derives from its result, by `actor`, in one transaction: the change lands
 * with its events or not at all. No event when `describe` answers none (nothing changed).
 */
export const auditedChange = Effect.gen(function* () {
  const trail = yield* AuditTrail
  const transactor = yield* Transactor
  return <A, E>(
    actor: string,
    change: Effect.Effect<A, E>,
    describe: (result: A) => ReadonlyArray<AuditedEffect>
  ): Effect.Effect<A, E | RepositoryError> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      transactor.transaction(
        Effect.tap(change, (result) =>
          Effect.forEach(describe(result), (entry) => trail.record({ ...entry, actor, at: now }), { discard: true })
        )
      )
    )
})
