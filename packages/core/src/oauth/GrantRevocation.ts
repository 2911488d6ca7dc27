import { Clock, Context, Effect, Layer, Option } from "effect"
import { auditedChange } from "../audit/AuditedChange.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { type RepositoryError, ResourceNotFound } from "../kernel/Errors.ts"
import type { GrantId } from "../kernel/Ids.ts"
import type { OAuthGrant } from "./OAuthGrant.ts"
import { OAuthGrantRepository } from "./OAuthGrantRepository.ts"

/**
 * An OAuth grant revoked by the platform operator (`marginctl grant revoke`): the grant and every
 * access and refresh token issued under it stop working now. Audited by `actor` in the
 * transaction of the write; a grant revoked already is answered as it is.
 */
export class GrantRevocation extends Context.Service<
  GrantRevocation,
  {
    readonly revoke: (
      id: GrantId,
      actor: string
    ) => Effect.Effect<
      { readonly grant: OAuthGrant; readonly revokedAt: number; readonly revokedNow: boolean },
      ResourceNotFound | RepositoryError
    >
  }
>()("margin/core/GrantRevocation") {
  static readonly layer = Layer.effect(
    GrantRevocation,
    Effect.gen(function* () {
      const grants = yield* OAuthGrantRepository
      const audited = yield* auditedChange
      return GrantRevocation.of({
        revoke: Effect.fn("GrantRevocation.revoke")(function* (id, actor) {
          const found = yield* grants.get(id)
          if (Option.isNone(found)) return yield* new ResourceNotFound({ resource: "grant", id })
          const revokedAt = found.value.revokedAt
          if (revokedAt !== null) return { grant: found.value, revokedAt, revokedNow: false }
          const now = yield* Clock.currentTimeMillis
          yield* audited(actor, grants.revoke(id, now), () => [
            {
              workspaceId: found.value.workspaceId,
              action: "grant.revoke",
              resourceType: "grant",
              resourceId: id,
              beforeStatus: "active",
              afterStatus: "revoked"
            }
          ])
          return { grant: { ...found.value, revokedAt: now }, revokedAt: now, revokedNow: true }
        })
      })
    })
  ).pipe(Layer.provide(AuditTrail.layer))
}
