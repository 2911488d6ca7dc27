import { Clock, Context, Effect, Layer } from "effect"
import { auditedChange } from "../audit/AuditedChange.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import type { RepositoryError, ResourceNotFound } from "../kernel/Errors.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { WorkspaceId } from "../kernel/Ids.ts"
import { defaultPricingPolicy } from "../pricing/PricingPolicy.ts"
import { existingWorkspace } from "./ExistingWorkspace.ts"
import type { Plan } from "./Plan.ts"
import type { LifecycleState, Workspace } from "./Workspace.ts"
import { WorkspaceRepository } from "./WorkspaceRepository.ts"

/** How long a workspace created in `trial` stays in trial. */
export const trialDays = 14
const dayMs = 86_400_000

/**
 * The platform operator's changes to workspaces (`marginctl workspace`): create one, change its
 * plan, set its pricing policy. Each is audited by `actor` (an actor label) in the transaction of
 * the write.
 */
export class WorkspaceAdministration extends Context.Service<
  WorkspaceAdministration,
  {
    /** A new workspace with the default pricing policy; in `trial` for `trialDays` days. */
    readonly create: (
      input: { readonly name: string; readonly plan: Plan; readonly state: LifecycleState },
      actor: string
    ) => Effect.Effect<Workspace, RepositoryError>
    /** Changes the plan; answers the plan before. */
    readonly setPlan: (
      id: WorkspaceId,
      plan: Plan,
      actor: string
    ) => Effect.Effect<Plan, ResourceNotFound | RepositoryError>
  }
>()("margin/core/WorkspaceAdministration") {
  static readonly layer = Layer.effect(
    WorkspaceAdministration,
    Effect.gen(function* () {
      const workspaces = yield* WorkspaceRepository
      const ids = yield* IdGenerator
      const audited = yield* auditedChange
      const existing = (id: WorkspaceId) => existingWorkspace(workspaces, id)
      const event = (id: WorkspaceId, action: string, beforeStatus: string | null, afterStatus: string | null) => ({
        workspaceId: id,
        action,
        resourceType: "workspace",
        resourceId: id,
        beforeStatus,
        afterStatus
      })
      return WorkspaceAdministration.of({
        create: Effect.fn("WorkspaceAdministration.create")(function* (input, actor) {
          const now = yield* Clock.currentTimeMillis
          const workspace: Workspace = {
            id: WorkspaceId.make(yield* ids.next("workspace")),
            name: input.name,
            plan: input.plan,
            lifecycleState: input.state,
            pricingPolicy: defaultPricingPolicy,
            trialEndsAt: input.state === "trial" ? now + trialDays * dayMs : null,
            createdAt: now
          }
          yield* audited(actor, workspaces.insert(workspace), () => [
            event(workspace.id, "workspace.create", null, input.state)
          ])
          return workspace
        }),
        setPlan: Effect.fn("WorkspaceAdministration.setPlan")(function* (id, plan, actor) {
          const before = yield* existing(id)
          yield* audited(actor, workspaces.setPlan(id, plan), () => [
            event(id, "workspace.set_plan", before.plan, plan)
          ])
          return before.plan
        })
      })
    })
  ).pipe(Layer.provide(AuditTrail.layer))
}
