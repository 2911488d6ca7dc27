import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { auditedChange } from "../audit/AuditedChange.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import type { RepositoryError, ResourceNotFound } from "../kernel/Errors.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { SupportSessionId, type WorkspaceId } from "../kernel/Ids.ts"
import { existingWorkspace } from "./ExistingWorkspace.ts"
import type { SupportSession } from "./SupportSession.ts"
import { SupportSessionRepository } from "./SupportSessionRepository.ts"
import { WorkspaceRepository } from "./WorkspaceRepository.ts"

/** A workspace has one support session open at a time. */
export class SupportSessionOpen extends Schema.TaggedError<SupportSessionOpen>()("SupportSessionOpen", {
  workspaceId: Schema.String,
  adminEmail: Schema.String,
  expiresAt: Schema.Number
}) {}

/**
 * Platform support sessions (`marginctl support`): an administrator's time-boxed access to one
 * workspace, shown in its status. Opened one at a time, closed early by the operator; each change
 * audited by `actor` in the transaction of the write.
 */
export class SupportSessions extends Context.Service<
  SupportSessions,
  {
    readonly open: (
      input: { readonly workspaceId: WorkspaceId; readonly adminEmail: string; readonly minutes: number },
      actor: string
    ) => Effect.Effect<SupportSession, ResourceNotFound | SupportSessionOpen | RepositoryError>
    /** Closes every session open on the workspace; answers how many. */
    readonly close: (
      workspaceId: WorkspaceId,
      actor: string
    ) => Effect.Effect<number, ResourceNotFound | RepositoryError>
  }
>()("margin/core/SupportSessions") {
  static readonly layer = Layer.effect(
    SupportSessions,
    Effect.gen(function* () {
      const sessions = yield* SupportSessionRepository
      const workspaces = yield* WorkspaceRepository
      const ids = yield* IdGenerator
      const audited = yield* auditedChange
      const existing = (id: WorkspaceId) => existingWorkspace(workspaces, id)
      const event = (workspaceId: WorkspaceId, resourceId: string, beforeStatus: string | null, after: string) => ({
        workspaceId,
        action: after === "open" ? "support.open" : "support.close",
        resourceType: "support_session",
        resourceId,
        beforeStatus,
        afterStatus: after
      })
      return SupportSessions.of({
        open: Effect.fn("SupportSessions.open")(function* ({ workspaceId, adminEmail, minutes }, actor) {
          yield* existing(workspaceId)
          const now = yield* Clock.currentTimeMillis
          const active = yield* sessions.activeFor(workspaceId, now)
          if (Option.isSome(active)) {
            return yield* new SupportSessionOpen({
              workspaceId,
              adminEmail: active.value.adminEmail,
              expiresAt: active.value.expiresAt
            })
          }
          const session: SupportSession = {
            id: SupportSessionId.make(yield* ids.next("supportSession")),
            workspaceId,
            adminEmail,
            startedAt: now,
            expiresAt: now + minutes * 60_000,
            closedAt: null
          }
          yield* audited(actor, sessions.open(session), () => [event(workspaceId, session.id, null, "open")])
          return session
        }),
        close: Effect.fn("SupportSessions.close")(function* (workspaceId, actor) {
          yield* existing(workspaceId)
          const now = yield* Clock.currentTimeMillis
          return yield* audited(actor, sessions.close(workspaceId, now), (count) =>
            count === 0 ? [] : [event(workspaceId, workspaceId, "open", "closed")]
          )
        })
      })
    })
  ).pipe(Layer.provide(AuditTrail.layer))
}
