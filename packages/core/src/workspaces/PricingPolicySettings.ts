import { Clock, Context, Effect, Layer, Option, Result, Schema } from "effect"
import { actorLabel } from "../access/Actor.ts"
import { type ActingMember, asManager } from "../access/Manager.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { type ForbiddenRole, type RepositoryError, ResourceNotFound } from "../kernel/Errors.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import { Transactor } from "../kernel/Transactor.ts"
import { checkPolicy, type PolicyField } from "../pricing/PolicyCheck.ts"
import type { PricingPolicy } from "../pricing/PricingPolicy.ts"
import { WorkspaceRepository } from "./WorkspaceRepository.ts"

/** The policy was refused: each field refused with what it must be. */
export class InvalidPolicy extends Schema.TaggedError<InvalidPolicy>()("InvalidPolicy", {
  fields: Schema.Array(Schema.Struct({ field: Schema.String, message: Schema.String }))
}) {}

/** A policy as a person or the operator proposes it: any field may be anything until checked. */
export type PolicyCandidate = Readonly<Record<PolicyField, unknown>>

/** Who changes the policy: a member of the workspace (admin, owner), or an operator by its actor label. */
export type PolicyEditor =
  | { readonly _tag: "Member"; readonly member: ActingMember }
  | { readonly _tag: "Operator"; readonly actor: string }

export type SetPolicyError = InvalidPolicy | ForbiddenRole | ResourceNotFound | RepositoryError

/**
 * A workspace's pricing policy as the console's settings and `marginctl workspace set-policy` change
 * it: one check (`checkPolicy`), one write, audited as `workspace.set_policy` in its transaction.
 */
export class PricingPolicySettings extends Context.Service<
  PricingPolicySettings,
  {
    readonly read: (workspaceId: WorkspaceId) => Effect.Effect<PricingPolicy, ResourceNotFound | RepositoryError>
    readonly set: (
      workspaceId: WorkspaceId,
      editor: PolicyEditor,
      candidate: PolicyCandidate
    ) => Effect.Effect<PricingPolicy, SetPolicyError>
  }
>()("margin/core/PricingPolicySettings") {
  static readonly layer = Layer.effect(
    PricingPolicySettings,
    Effect.gen(function* () {
      const workspaces = yield* WorkspaceRepository
      const transactor = yield* Transactor
      const trail = yield* AuditTrail
      const read = (workspaceId: WorkspaceId) =>
        Effect.flatMap(workspaces.get(workspaceId), (found) =>
          Option.match(found, {
            onNone: () => Effect.fail(new ResourceNotFound({ resource: "workspace", id: workspaceId })),
            onSome: (workspace) => Effect.succeed(workspace.pricingPolicy)
          })
        )
      return PricingPolicySettings.of({
        read,
        set: Effect.fn("PricingPolicySettings.set")(function* (workspaceId, editor, candidate) {
          if (editor._tag === "Member") yield* asManager(editor.member)
          const actor =
            editor._tag === "Operator"
              ? editor.actor
              : actorLabel({ _tag: "SessionActor", userId: editor.member.userId })
          yield* read(workspaceId)
          const checked = checkPolicy(candidate)
          if (Result.isFailure(checked)) return yield* new InvalidPolicy({ fields: checked.failure })
          const policy = checked.success
          const now = yield* Clock.currentTimeMillis
          yield* transactor.transaction(
            Effect.andThen(
              workspaces.setPricingPolicy(workspaceId, policy),
              trail.record({
                workspaceId,
                actor,
                action: "workspace.set_policy",
                resourceType: "workspace",
                resourceId: workspaceId,
                beforeStatus: null,
                afterStatus: null,
                at: now
              })
            )
          )
          return policy
        })
      })
    })
  ).pipe(Layer.provide(AuditTrail.layer))
}
