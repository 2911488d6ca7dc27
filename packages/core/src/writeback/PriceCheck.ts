import type { StoreWriteResult } from "./StoreWriteBack.ts"
import type { WriteBackPayload } from "./WriteBack.ts"

/**
 * What a store adapter does once it has read the variant's current price.
 * Every adapter decides with this one rule, so a repeated delivery is harmless everywhere:
 * the new price already there means a previous attempt landed; the old price means write;
 * anything else means someone else changed the price and we must not overwrite it.
 */
export type PriceCheck =
  | { readonly _tag: "Write" }
  | Extract<StoreWriteResult, { readonly _tag: "AlreadyApplied" | "PriceDrift" }>

export const checkPrice = (current: number, payload: Pick<WriteBackPayload, "oldPrice" | "newPrice">): PriceCheck => {
  // New before old: when both are equal nothing is left to write.
  if (current === payload.newPrice) return { _tag: "AlreadyApplied" }
  if (current === payload.oldPrice) return { _tag: "Write" }
  return { _tag: "PriceDrift", observedPrice: current }
}
