import { Clock, Context, Effect, Layer, type Option, Redacted } from "effect"
import { type Actor, actorLabel } from "../access/Actor.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { InvalidInput, type RepositoryError } from "../kernel/Errors.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
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
 * A workspace's store connection as its settings show it: read it, connect it (checked with the
 * platform first, StoreConnectionCheck; audited) and disconnect it (audited). A
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
    ) => Effect.Effect<ConnectedStore, InvalidInput | StoreConnectionRefused | RepositoryError>
    /** True when a connected store was disconnected; false when there was none. */
    readonly disconnect: (workspaceId: WorkspaceId, actor: Actor) => Effect.Effect<boolean, RepositoryError>
  }
>()("margin/core/StoreConnections") {
  static readonly layer = Layer.effect(
    StoreConnections,
    Effect.gen(function* () {
      const connections = yield* StoreConnectionRepository
      const audit = yield* AuditTrail
      const platforms = yield* StoreConnectionCheck
      return StoreConnections.of({
        get: (workspaceId) => connections.get(workspaceId),
        connect: Effect.fn("StoreConnections.connect")(function* (
          workspaceId: WorkspaceId,
          request: ConnectRequest,
          actor: Actor
        ) {
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
          yield* connections.connect(
            connection,
            request.accessToken === null ? null : Redacted.value(request.accessToken)
          )
          yield* audit.record({
            workspaceId,
            actor: actorLabel(actor),
            action: "store.connect",
            resourceType: "store_connection",
            resourceId: workspaceId,
            beforeStatus: null,
            afterStatus: "connected",
            at: now
          })
          const variants = yield* platforms.prepare(connection)
          return { connection, shopName: checked.shopName, variants }
        }),
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
