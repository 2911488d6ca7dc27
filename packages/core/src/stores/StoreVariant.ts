import { Schema } from "effect"
import type { CatalogPatch } from "../catalog/CatalogPatch.ts"
import { Tag } from "../catalog/Tag.ts"
import type { CurrencyCode } from "../kernel/Money.ts"
import type { Timestamp } from "../kernel/Timestamp.ts"

/**
 * One variant as a store sync reads it, whatever the platform. A field the platform does not say
 * (`undefined`) is left alone on the catalog item, as a column absent from an import is; `null` is the
 * store saying there is none (no compare-at price, no cost, untracked stock). Amounts are the
 * store's decimal text in major units of `currency`, turned into minor units where the patch is
 * applied (CatalogImportDecision).
 */
export interface StoreVariant {
  readonly sku: string
  /**
   * The store's id of the variant, which becomes the item's store variant ref; a variant named by its
   * sku (how the sandbox store names an item without a ref) leaves the item's ref as it is.
   */
  readonly variantRef: string
  readonly productRef?: string
  /** "Product title / variant title", or the product title alone for a product's only variant. */
  readonly title?: string
  readonly currency: CurrencyCode
  readonly price: string
  readonly compareAtPrice?: string | null
  /** The unit cost of the variant's inventory item. */
  readonly cost?: string | null
  /** Units available across locations; null when the store does not track its stock. */
  readonly inventory?: number | null
  readonly tags?: ReadonlyArray<string>
  readonly productType?: string | null
  /** The product's status in the store (Shopify: active, draft, archived). */
  readonly status?: string
}

const isTag = Schema.is(Tag)

/**
 * The item's tags from the store: the product's tags, its product type and its status as
 * `status:<status>` (so a run can leave drafts and archived products out by tag). Text that cannot be
 * a catalog tag (longer than 64 characters, with `;`) is left out; repeats are kept once, in order.
 */
export const storeTags = (variant: StoreVariant): ReadonlyArray<string> => {
  const candidates = [
    ...(variant.tags ?? []),
    ...(variant.productType ? [variant.productType] : []),
    ...(variant.status === undefined ? [] : [`status:${variant.status.toLowerCase()}`])
  ]
  return [...new Set(candidates.map((tag) => tag.trim()).filter(isTag))]
}

/**
 * What a store sync says about one item: the patch of its variant as the store holds it, with the
 * price observed at `observedAt`, the time the sync's read of the store began. A write-back applied
 * after that time is newer than what the read saw, so the read cannot put the old price back
 * (CatalogImportDecision.priceMove).
 */
export const storeVariantPatch = (variant: StoreVariant, observedAt: Timestamp): CatalogPatch => {
  const tagsKnown = variant.tags !== undefined || variant.productType !== undefined || variant.status !== undefined
  return {
    sku: variant.sku,
    currency: variant.currency,
    price: variant.price,
    observedAt,
    ...(variant.variantRef === variant.sku ? {} : { storeVariantRef: variant.variantRef }),
    ...(variant.title === undefined ? {} : { title: variant.title }),
    ...(variant.productRef === undefined ? {} : { storeProductRef: variant.productRef }),
    ...(variant.compareAtPrice === undefined ? {} : { compareAtPrice: variant.compareAtPrice }),
    ...(variant.cost === undefined ? {} : { cost: variant.cost }),
    ...(variant.inventory === undefined ? {} : { inventory: variant.inventory }),
    ...(tagsKnown ? { tags: storeTags(variant) } : {})
  }
}
