import { Context, Effect, Layer, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { AuditEventId, type WorkspaceId } from "../kernel/Ids.ts"
import type { Outcome } from "../kernel/Outcome.ts"
import { type CommandError, type Settled, settle } from "../kernel/Settle.ts"
import type { AuditEvent } from "./AuditEvent.ts"
import { AuditRepository } from "./AuditRepository.ts"

/** One audited mutation; the trail adds the id. */
export interface AuditEntry {
  readonly workspaceId: WorkspaceId
  readonly actor: string
  readonly action: string
  readonly resourceType: string
  readonly resourceId: string
  readonly beforeStatus: string | null
  readonly afterStatus: string | null
  readonly at: number
}

/** Who changed which resource how, for a state machine command; the statuses come from the outcome. */
export interface TransitionSubject<A> {
  readonly workspaceId: WorkspaceId
  readonly actor: string
  readonly action: string
  readonly resourceType: string
  readonly resourceId: string
  readonly at: number
  /** The status to record; the stored `status` unless given. */
  readonly statusOf?: (entity: A) => string
}

/**
 * Writes the audit event of a mutation. Call it inside the `Transactor.transaction` of the write:
 * the event lands with the change or not at all.
 */
export class AuditTrail extends Context.Service<
  AuditTrail,
  {
    readonly record: (entry: AuditEntry) => Effect.Effect<void, RepositoryError>
    /**
     * Settles a repository's `update` answer (see `Settle.settle`) and audits it when the command
     * took effect now; a repeat changed nothing and leaves no event.
     */
    readonly transition: <A extends { readonly status: string }>(
      subject: TransitionSubject<A>,
      found: Option.Option<Outcome<A>>
    ) => Effect.Effect<Settled<A>, CommandError>
  }
>()("margin/core/AuditTrail") {
  static readonly layer = Layer.effect(
    AuditTrail,
    Effect.gen(function* () {
      const ids = yield* IdGenerator
      const audit = yield* AuditRepository

      const record = (entry: AuditEntry): Effect.Effect<void, RepositoryError> =>
        Effect.flatMap(ids.next("auditEvent"), (id) => {
          const event: AuditEvent = { id: AuditEventId.make(id), ...entry }
          return audit.record(event)
        })

      const transition = <A extends { readonly status: string }>(
        subject: TransitionSubject<A>,
        found: Option.Option<Outcome<A>>
      ): Effect.Effect<Settled<A>, CommandError> =>
        // `settle` answers at once (an exit), so flatMapEager runs on it without a step of the run loop.
        Effect.flatMapEager(
          settle(subject.resourceType, subject.resourceId, found),
          (settled): Effect.Effect<Settled<A>, RepositoryError> => {
            if (settled._tag === "IdempotentRepeat") return Effect.succeed(settled)
            const statusOf = subject.statusOf ?? ((entity: A) => entity.status)
            const event = record({
              workspaceId: subject.workspaceId,
              actor: subject.actor,
              action: subject.action,
              resourceType: subject.resourceType,
              resourceId: subject.resourceId,
              beforeStatus: statusOf(settled.before),
              afterStatus: statusOf(settled.after),
              at: subject.at
            })
            return Effect.as(event, settled)
          }
        )

      return AuditTrail.of({ record, transition })
    })
  )
}
