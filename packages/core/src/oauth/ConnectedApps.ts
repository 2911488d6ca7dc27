import { Clock, Context, Effect, Layer, Option } from "effect"
import { actorLabel } from "../access/Actor.ts"
import { type ActingMember, asManager } from "../access/Manager.ts"
import { UserRepository } from "../access/UserRepository.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { type ForbiddenRole, type RepositoryError, ResourceNotFound } from "../kernel/Errors.ts"
import type { GrantId, WorkspaceId } from "../kernel/Ids.ts"
import { Transactor } from "../kernel/Transactor.ts"
import { OAuthClientRepository } from "./OAuthClientRepository.ts"
import { grantLive, type OAuthGrant } from "./OAuthGrant.ts"
import { OAuthGrantRepository } from "./OAuthGrantRepository.ts"

/** A grant as the connected apps page shows it: the client's name and who connected it. */
export interface ConnectedApp {
  readonly grant: OAuthGrant
  /** The client's registered name; its id when it registered none or is gone. */
  readonly clientName: string
  /** The address of the member who consented; empty when the user is gone. */
  readonly connectedBy: string
}

/**
 * The AI agents connected to a workspace over OAuth (its live grants), as an admin or owner sees
 * and revokes them in the console. A revoke ends the grant and so, at once, every access and
 * refresh token issued under it (the resource and the token endpoint check the grant on each
 * use); audited as `grant.revoke`, as `marginctl grant revoke` is.
 */
export class ConnectedApps extends Context.Service<
  ConnectedApps,
  {
    readonly list: (
      workspaceId: WorkspaceId,
      member: ActingMember
    ) => Effect.Effect<ReadonlyArray<ConnectedApp>, ForbiddenRole | RepositoryError>
    /** Answers the grant as revoked; one already revoked, or of another workspace, is not found. */
    readonly revoke: (
      workspaceId: WorkspaceId,
      member: ActingMember,
      id: GrantId
    ) => Effect.Effect<ConnectedApp, ForbiddenRole | ResourceNotFound | RepositoryError>
  }
>()("margin/core/ConnectedApps") {
  static readonly layer = Layer.effect(
    ConnectedApps,
    Effect.gen(function* () {
      const grants = yield* OAuthGrantRepository
      const clients = yield* OAuthClientRepository
      const users = yield* UserRepository
      const transactor = yield* Transactor
      const trail = yield* AuditTrail

      const shown = (grant: OAuthGrant) =>
        Effect.map(
          Effect.all([clients.get(grant.clientId), users.get(grant.userId)]),
          ([client, user]): ConnectedApp => ({
            grant,
            clientName: Option.match(client, {
              onNone: () => grant.clientId,
              onSome: (stored) => (stored.client.name === "" ? grant.clientId : stored.client.name)
            }),
            connectedBy: Option.match(user, { onNone: () => "", onSome: (found) => found.email })
          })
        )

      return ConnectedApps.of({
        list: Effect.fn("ConnectedApps.list")(function* (workspaceId, member) {
          yield* asManager(member)
          const now = yield* Clock.currentTimeMillis
          const all = yield* grants.list({ workspaceId })
          return yield* Effect.forEach(
            all.filter((grant) => grantLive(grant, now)),
            shown
          )
        }),

        revoke: Effect.fn("ConnectedApps.revoke")(function* (workspaceId, member, id) {
          yield* asManager(member)
          const now = yield* Clock.currentTimeMillis
          const found = yield* grants.get(id)
          if (Option.isNone(found) || found.value.workspaceId !== workspaceId || !grantLive(found.value, now)) {
            return yield* new ResourceNotFound({ resource: "grant", id })
          }
          yield* transactor.transaction(
            Effect.andThen(
              grants.revoke(id, now),
              trail.record({
                workspaceId,
                actor: actorLabel({ _tag: "SessionActor", userId: member.userId }),
                action: "grant.revoke",
                resourceType: "grant",
                resourceId: id,
                beforeStatus: "active",
                afterStatus: "revoked",
                at: now
              })
            )
          )
          return yield* shown({ ...found.value, revokedAt: now })
        })
      })
    })
  ).pipe(Layer.provide(AuditTrail.layer))
}
