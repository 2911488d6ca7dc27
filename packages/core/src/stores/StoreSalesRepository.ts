import { Context, type Effect } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import type { CurrencyCode } from "../kernel/Money.ts"
import type { Timestamp } from "../kernel/Timestamp.ts"
import type { StoreSale } from "./StoreSale.ts"

/** The units and revenue (minor units) of one sku's sales within one interval of a partition of time. */
export interface StoreSaleTotal {
  readonly sku: string
  /** `i`: the sales sold in `[boundaries[i], boundaries[i + 1])`. */
  readonly interval: number
  readonly units: number
  readonly revenue: number
  readonly currency: CurrencyCode
}

/**
 * The sales history a store sync reads from the store's orders (docs/stores.md, "Orders"), one row per
 * order line. Writing a line again replaces it, so re-reading an order never counts it twice.
 */
export class StoreSalesRepository extends Context.Service<
  StoreSalesRepository,
  {
    /** Inserts or replaces each sale by its line ref; inside a transaction, it lands with the sync or not at all. */
    readonly record: (workspaceId: WorkspaceId, sales: ReadonlyArray<StoreSale>) => Effect.Effect<void, RepositoryError>
    /** The skus with a sale sold in `[from, to)`, each once, in sku order. */
    readonly skusSoldBetween: (
      workspaceId: WorkspaceId,
      from: Timestamp,
      to: Timestamp
    ) => Effect.Effect<ReadonlyArray<string>, RepositoryError>
    /**
     * The sales of `skus`, summed per sku and per interval of `boundaries` (ascending): interval `i` is
     * `[boundaries[i], boundaries[i + 1])`; sales outside `[first, last)` are left out, as are intervals
     * with no sale. One currency per sku is assumed (the shop's); the rows name it.
     */
    readonly totals: (
      workspaceId: WorkspaceId,
      skus: ReadonlyArray<string>,
      boundaries: ReadonlyArray<Timestamp>
    ) => Effect.Effect<ReadonlyArray<StoreSaleTotal>, RepositoryError>
  }
>()("margin/core/StoreSalesRepository") {}
