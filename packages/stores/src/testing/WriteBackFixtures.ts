import { CatalogItemId, RecommendationId, WorkspaceId, WriteBackId } from "@margin/core/Ids"
import { CurrencyCode } from "@margin/core/Money"
import type { StoreConnection, StorePlatform } from "@margin/core/StoreConnection"
import type { WriteBack } from "@margin/core/WriteBack"

/** A connected store of the given platform, for adapter tests. */
export const connectionFor = (
  platform: StorePlatform,
  workspaceId: string,
  shop: string | null = null
): StoreConnection => ({
  workspaceId: WorkspaceId.make(workspaceId),
  platform,
  shop,
  status: "connected",
  connectedAt: 0
})

/** An outbox row asking the store to move `variantRef` from `oldPrice` to `newPrice` (minor units). */
export const writeBackFor = (options: {
  readonly workspaceId: string
  readonly variantRef: string | null
  readonly oldPrice: number
  readonly newPrice: number
  readonly currency?: string
  readonly productRef?: string | null
  readonly id?: string
}): WriteBack => ({
  id: WriteBackId.make(options.id ?? `wb_${options.variantRef ?? "none"}`),
  workspaceId: WorkspaceId.make(options.workspaceId),
  recommendationId: RecommendationId.make(`rec_${options.variantRef ?? "none"}`),
  idempotencyKey: `approve:rec_${options.variantRef ?? "none"}`,
  payload: {
    itemId: CatalogItemId.make(`itm_${options.variantRef ?? "none"}`),
    sku: `SKU-${options.variantRef ?? "none"}`,
    storeProductRef: options.productRef ?? null,
    storeVariantRef: options.variantRef,
    currency: CurrencyCode.make(options.currency ?? "USD"),
    oldPrice: options.oldPrice,
    newPrice: options.newPrice
  },
  status: "in_flight",
  attempts: 1,
  nextAttemptAt: 0,
  lastError: null,
  appliedAt: null,
  createdAt: 0
})
