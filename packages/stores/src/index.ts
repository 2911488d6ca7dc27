/**
 * @margin/stores: the store write-back adapters of core's StoreWriteBack port (the sandbox store,
 * Shopify) and the router between them. Its test kit (a fake Shopify) is under "@margin/stores/testing/*".
 */

export { SandboxCatalogSource } from "./SandboxCatalogSource.ts"
export { SandboxFaults } from "./SandboxFaults.ts"
export { SandboxStore, sandboxVariantRef } from "./SandboxStore.ts"
export { ShopifyCatalogSource } from "./ShopifyCatalogSource.ts"
export { ShopifyConfig } from "./ShopifyConfig.ts"
export { type CheckedShop, checkShopifyShop, requireMyshopifyDomain } from "./ShopifyShopCheck.ts"
export { ShopifyStore } from "./ShopifyStore.ts"
export * as StoreCatalogRouter from "./StoreCatalogRouter.ts"
export * as StoreConnectionChecks from "./StoreConnectionChecks.ts"
export * as StoreRouter from "./StoreRouter.ts"
