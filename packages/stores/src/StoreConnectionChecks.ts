import { NodeHttpClient } from "@effect/platform-node"
import { CatalogRepository } from "@margin/core/catalog/CatalogRepository"
import type { WorkspaceId } from "@margin/core/kernel/Ids"
import { StoreConnectionCheck, StoreConnectionRefused } from "@margin/core/stores/StoreConnectionCheck"
import { PgSandboxStore } from "@margin/postgres"
import { Effect, Layer, Stream } from "effect"
import type { SqlClient } from "effect/sql"
import { sandboxVariantRef } from "./SandboxStore.ts"
import { ShopifyConfig } from "./ShopifyConfig.ts"
import { checkShopifyShop } from "./ShopifyShopCheck.ts"

/** Items read per chunk when copying the catalog into the sandbox store. */
const copyChunkSize = 1000

/** Copies every catalog price of the workspace into the sandbox store; answers how many variants it wrote. */
export const copyCatalogToSandbox = Effect.fn("copyCatalogToSandbox")(function* (workspaceId: WorkspaceId) {
  const catalog = yield* CatalogRepository
  return yield* catalog.streamForRun(workspaceId, [], copyChunkSize).pipe(
    Stream.mapEffect((chunk) =>
      Effect.as(
        PgSandboxStore.seedVariants(
          workspaceId,
          chunk.map((item) => ({ variantRef: sandboxVariantRef(item), price: item.price, currency: item.currency }))
        ),
        chunk.length
      )
    ),
    Stream.runFold(
      () => 0,
      (total, count) => total + count
    )
  )
})

/**
 * The platforms' connect-time work (core's StoreConnectionCheck): a Shopify connection is checked
 * with one read of the Admin API (checkShopifyShop); a sandbox store is given every catalog price,
 * so that it holds the merchant's products as a real store would (docs/stores.md, "sandbox").
 */
export const layer = Layer.effect(
  StoreConnectionCheck,
  Effect.gen(function* () {
    const context = yield* Effect.context<ShopifyConfig | CatalogRepository | SqlClient.SqlClient>()
    return StoreConnectionCheck.of({
      check: ({ platform, shop, accessToken }) =>
        platform === "sandbox" || shop === null || accessToken === null
          ? Effect.succeed({ shop: null, shopName: null })
          : checkShopifyShop(shop, accessToken).pipe(
              Effect.map((checked) => ({ shop: checked.domain, shopName: checked.name })),
              Effect.catchTags({
                ShopifyRefused: (refused) =>
                  Effect.fail(new StoreConnectionRefused({ message: refused.message, unavailable: false })),
                StoreUnavailable: (unavailable) =>
                  Effect.fail(new StoreConnectionRefused({ message: unavailable.message, unavailable: true }))
              }),
              Effect.provide(NodeHttpClient.layerUndici),
              Effect.provideContext(context)
            ),
      prepare: (connection) =>
        connection.platform !== "sandbox"
          ? Effect.succeed(null)
          : copyCatalogToSandbox(connection.workspaceId).pipe(Effect.provideContext(context))
    })
  })
)

/** As servers run it: Shopify configured from the environment. Needs the database (SqlClient) and the catalog. */
export const layerLive = layer.pipe(Layer.provide(ShopifyConfig.layer))
