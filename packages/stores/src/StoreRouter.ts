import { NodeHttpClient } from "@effect/platform-node"
import type { StorePlatform } from "@margin/core/stores/StoreConnection"
import { StoreWriteBack, type StoreWriteResult } from "@margin/core/writeback/StoreWriteBack"
import { Effect, Layer } from "effect"
import { SandboxFaults } from "./SandboxFaults.ts"
import { SandboxStore } from "./SandboxStore.ts"
import { ShopifyConfig } from "./ShopifyConfig.ts"
import { ShopifyStore } from "./ShopifyStore.ts"

/**
 * The StoreWriteBack port: each delivery goes to the adapter of its connection's platform.
 * The table is keyed by StorePlatform, so a new platform does not compile until it has an adapter.
 * Two guards sit here, once for every platform: a disconnected store is never written to, and a
 * write-back is only delivered to its own workspace's store.
 */
export const layer: Layer.Layer<StoreWriteBack, never, SandboxStore | ShopifyStore> = Layer.effect(
  StoreWriteBack,
  Effect.gen(function* () {
    const adapters: Readonly<Record<StorePlatform, StoreWriteBack["Service"]>> = {
      sandbox: yield* SandboxStore,
      shopify: yield* ShopifyStore
    }
    return StoreWriteBack.of({
      deliver: (connection, writeBack) => {
        if (connection.workspaceId !== writeBack.workspaceId) {
          return Effect.succeed<StoreWriteResult>({
            _tag: "Rejected",
            message: `write-back ${writeBack.id} belongs to another workspace than the store connection`
          })
        }
        if (connection.status !== "connected") {
          return Effect.succeed<StoreWriteResult>({ _tag: "Rejected", message: "the store is not connected" })
        }
        return adapters[connection.platform].deliver(connection, writeBack)
      }
    })
  })
)

/**
 * Everything a server or worker needs for write-backs: both adapters, Shopify configured from the
 * environment over undici, sandbox faults from the environment (none unless set). Needs the database
 * (SqlClient) for the sandbox and the StoreCredentials of connected shops.
 */
export const layerLive = layer.pipe(
  Layer.provide(SandboxStore.layer),
  Layer.provide(ShopifyStore.layer),
  Layer.provide([SandboxFaults.layer, ShopifyConfig.layer, NodeHttpClient.layerUndici])
)
