import { Context, Effect, Layer } from "effect"
import { auditedChange } from "../audit/AuditedChange.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import type { RepositoryError, ResourceNotFound } from "../kernel/Errors.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import { existingWorkspace } from "../workspaces/ExistingWorkspace.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import type { StoreConnection } from "./StoreConnection.ts"
import { StoreConnectionRepository } from "./StoreConnectionRepository.ts"

/**
 * A workspace's store connection as the platform operator sets it (`marginctl store connect`,
 * `disconnect`): the shop checked beforehand by the caller, the credentials stored encrypted by the
 * adapter. Each change is audited by `actor` in the transaction of the write.
 */
export class StoreConnections extends Context.Service<
  StoreConnections,
  {
    /** Connects or reconnects the workspace's store. */
    readonly connect: (
      connection: StoreConnection,
      credentials: string | null,
      actor: string
    ) => Effect.Effect<void, ResourceNotFound | RepositoryError>
    /** Disconnects it; false when it was not connected (nothing audited then). */
    readonly disconnect: (
      workspaceId: WorkspaceId,
      actor: string
    ) => Effect.Effect<boolean, ResourceNotFound | RepositoryError>
  }
>()("margin/core/StoreConnections") {
  static readonly layer = Layer.effect(
    StoreConnections,
    Effect.gen(function* () {
      const stores = yield* StoreConnectionRepository
      const workspaces = yield* WorkspaceRepository
      const audited = yield* auditedChange
      const existing = (id: WorkspaceId) => existingWorkspace(workspaces, id)
      const event = (workspaceId: WorkspaceId, action: string, beforeStatus: string | null, afterStatus: string) => ({
        workspaceId,
        action,
        resourceType: "store_connection",
        resourceId: workspaceId,
        beforeStatus,
        afterStatus
      })
      return StoreConnections.of({
        connect: (connection, credentials, actor) =>
          Effect.andThen(
            existing(connection.workspaceId),
            audited(actor, stores.connect(connection, credentials), () => [
              event(connection.workspaceId, "store.connect", null, "connected")
            ])
          ),
        disconnect: (workspaceId, actor) =>
          Effect.andThen(
            existing(workspaceId),
            audited(actor, stores.disconnect(workspaceId), (changed) =>
              changed ? [event(workspaceId, "store.disconnect", "connected", "disconnected")] : []
            )
          )
      })
    })
  ).pipe(Layer.provide(AuditTrail.layer))
}
