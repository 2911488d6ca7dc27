import { Clock, Context, Effect, Layer, type Option, Redacted } from "effect"
import { type Actor, actorLabel } from "../access/Actor.ts"
import { auditedChange } from "../audit/AuditedChange.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { InvalidInput, type RepositoryError, type ResourceNotFound } from "../kernel/Errors.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import { existingWorkspace } from "../workspaces/ExistingWorkspace.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import type { StoreConnection, StorePlatform } from "./StoreConnection.ts"
import { StoreConnectionCheck, type StoreConnectionRefused } from "./StoreConnectionCheck.ts"
import { StoreConnectionRepository } from "./StoreConnectionRepository.ts"

export interface ConnectRequest {
  readonly platform: StorePlatform
  readonly shop: string | null
  readonly accessToken: Redacted.Redacted<string> | null
}

export interface ConnectedStore {
  readonly connection: StoreConnection
  readonly shopName: string | null
  /** Variants put in the store while connecting (the sandbox: the catalog's prices); null for none. */
  readonly variants: number | null
}

/**
 * A workspace's store connection as its settings show it and the operator sets it (the console's
 * Store page, `marginctl store connect|disconnect`): read it, connect it (checked with the platform
 * first, StoreConnectionCheck) and disconnect it, each change audited in the transaction of its
 * write (`auditedChange`); an unknown workspace is not found. A
 * disconnected store takes the service's hands off it: its pending write-backs are refused, and
 * neither a sync asked for nor a scheduled one reads it (docs/stores.md).
 */
export class StoreConnections extends Context.Service<
  StoreConnections,
  {
    readonly get: (workspaceId: WorkspaceId) => Effect.Effect<Option.Option<StoreConnection>, RepositoryError>
    /**
     * Connects (or reconnects) the workspace's store once the platform accepted the credentials:
     * Shopify needs the shop's myshopify domain and an Admin API token; the sandbox takes neither.
     */
    readonly connect: (
      workspaceId: WorkspaceId,
      request: ConnectRequest,
      actor: Actor
    ) => Effect.Effect<ConnectedStore, InvalidInput | StoreConnectionRefused | ResourceNotFound | RepositoryError>
    /** True when a connected store was disconnected; false when there was none (nothing audited then). */
    readonly disconnect: (
      workspaceId: WorkspaceId,
      actor: Actor
    ) => Effect.Effect<boolean, ResourceNotFound | RepositoryError>
  }
>()("margin/core/StoreConnections") {
  static readonly layer = Layer.effect(
    StoreConnections,
    Effect.gen(function* () {
      const connections = yield* StoreConnectionRepository
      const workspaces = yield* WorkspaceRepository
      const audited = yield* auditedChange
      const platforms = yield* StoreConnectionCheck
      const event = (workspaceId: WorkspaceId, action: string, beforeStatus: string | null, afterStatus: string) => ({
        workspaceId,
        action,
        resourceType: "store_connection",
        resourceId: workspaceId,
        beforeStatus,
        afterStatus
      })
      return StoreConnections.of({
        get: (workspaceId) => connections.get(workspaceId),
        connect: Effect.fn("StoreConnections.connect")(function* (
          workspaceId: WorkspaceId,
          request: ConnectRequest,
          actor: Actor
        ) {
          yield* existingWorkspace(workspaces, workspaceId)
          if (request.platform === "shopify" && (request.shop === null || request.accessToken === null)) {
            return yield* new InvalidInput({
              path: request.shop === null ? "shop" : "access_token",
              message: "a Shopify store needs its myshopify domain and an Admin API access token"
            })
          }
          if (request.platform === "sandbox" && (request.shop !== null || request.accessToken !== null)) {
            return yield* new InvalidInput({ path: "platform", message: "the sandbox store takes no shop or token" })
          }
          const checked = yield* platforms.check(request)
          const now = yield* Clock.currentTimeMillis
          const connection: StoreConnection = {
            workspaceId,
            platform: request.platform,
            shop: checked.shop,
            status: "connected",
            connectedAt: now
          }
          yield* audited(
            actorLabel(actor),
            connections.connect(connection, request.accessToken === null ? null : Redacted.value(request.accessToken)),
            () => [event(workspaceId, "store.connect", null, "connected")]
          )
          const variants = yield* platforms.prepare(connection)
          return { connection, shopName: checked.shopName, variants }
        }),
        disconnect: Effect.fn("StoreConnections.disconnect")(function* (workspaceId: WorkspaceId, actor: Actor) {
          yield* existingWorkspace(workspaces, workspaceId)
          return yield* audited(actorLabel(actor), connections.disconnect(workspaceId), (changed) =>
            changed ? [event(workspaceId, "store.disconnect", "connected", "disconnected")] : []
          )
        })
      })
    })
  ).pipe(Layer.provide(AuditTrail.layer))
}
