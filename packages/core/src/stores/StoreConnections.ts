import { Clock, Context, Effect, Layer, type Option } from "effect"
import { type Actor, actorLabel } from "../access/Actor.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import type { StoreConnection } from "./StoreConnection.ts"
import { StoreConnectionRepository } from "./StoreConnectionRepository.ts"

/**
 * A workspace's store connection as its settings show it: read it, and disconnect it (audited). A
 * disconnected store takes the service's hands off it: its pending write-backs are refused, and
 * neither a sync asked for nor a scheduled one reads it (docs/stores.md).
 */
export class StoreConnections extends Context.Service<
  StoreConnections,
  {
    readonly get: (workspaceId: WorkspaceId) => Effect.Effect<Option.Option<StoreConnection>, RepositoryError>
    /** True when a connected store was disconnected; false when there was none. */
    readonly disconnect: (workspaceId: WorkspaceId, actor: Actor) => Effect.Effect<boolean, RepositoryError>
  }
>()("margin/core/StoreConnections") {
  static readonly layer = Layer.effect(
    StoreConnections,
    Effect.gen(function* () {
      const connections = yield* StoreConnectionRepository
      const audit = yield* AuditTrail
      return StoreConnections.of({
        get: (workspaceId) => connections.get(workspaceId),
        disconnect: Effect.fn("StoreConnections.disconnect")(function* (workspaceId: WorkspaceId, actor: Actor) {
          const disconnected = yield* connections.disconnect(workspaceId)
          if (disconnected) {
            yield* audit.record({
              workspaceId,
              actor: actorLabel(actor),
              action: "store.disconnect",
              resourceType: "store_connection",
              resourceId: workspaceId,
              beforeStatus: "connected",
              afterStatus: "disconnected",
              at: yield* Clock.currentTimeMillis
            })
          }
          return disconnected
        })
      })
    })
  ).pipe(Layer.provide(AuditTrail.layer))
}
