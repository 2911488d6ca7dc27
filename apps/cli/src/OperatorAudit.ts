import type { AuditEntry } from "@margin/core/audit/AuditTrail"
import { AuditTrail } from "@margin/core/audit/AuditTrail"
import { Transactor } from "@margin/core/kernel/Transactor"
import { Clock, Effect } from "effect"

/** The actor of every audit event the CLI leaves. */
export const operatorActor = "system:marginctl"

/** What one change did to one resource; the actor and the instant are added. */
export type OperatorChange = Omit<AuditEntry, "actor" | "at">

/**
 * Applies `change` and records the audit events `describe` derives from its result, in one
 * transaction: the change lands with its events or not at all. No event when nothing changed.
 */
export const audited = <A, E, R>(
  change: Effect.Effect<A, E, R>,
  describe: (result: A) => ReadonlyArray<OperatorChange>
) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const trail = yield* AuditTrail
    return yield* (yield* Transactor).transaction(
      Effect.tap(change, (result) =>
        Effect.forEach(describe(result), (entry) => trail.record({ ...entry, actor: operatorActor, at: now }), {
          discard: true
        })
      )
    )
  })
