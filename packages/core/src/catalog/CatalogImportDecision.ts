import { Result } from "effect"
import { type CurrencyCode, parseMajorUnits } from "../kernel/Money.ts"
import type { Timestamp } from "../kernel/Timestamp.ts"
import type { CatalogItem } from "./CatalogItem.ts"
import type { CatalogPatch } from "./CatalogPatch.ts"
import { samePriceHistory, withPrice, withSalesPeriods, withUnits } from "./PriceHistory.ts"

/** A new item as an import makes it: everything but the id, which the repository gives. */
export type NewCatalogItem = Omit<CatalogItem, "id">

/**
 * What one import line does to one item (a pure decision; the repository applies it):
 * - `Created`: the sku was not in the catalog.
 * - `Updated`: at least one field changed; which kinds of field say `priceChanged`, `costChanged`,
 *   `otherChanged` (an item may be all three).
 * - `Unchanged`: the line said what the item already holds (a re-sent state changes nothing).
 * - `Rejected`: the line cannot be applied; the item is left as it was.
 * `stalePrice` marks a line whose price was not taken because it is older than the item's
 * (see `priceMove`); the line's other fields still apply.
 */
export type ImportDecision =
  | { readonly _tag: "Created"; readonly item: NewCatalogItem }
  | {
      readonly _tag: "Updated"
      readonly item: CatalogItem
      readonly priceChanged: boolean
      readonly costChanged: boolean
      readonly otherChanged: boolean
      readonly stalePrice: boolean
    }
  | { readonly _tag: "Unchanged"; readonly stalePrice: boolean }
  | { readonly _tag: "Rejected"; readonly error: string }

/** What becomes of a line's price for an existing item. */
export type PriceMove = "same" | "stale" | "moved"

/**
 * Whether a line's price moves the item's price:
 * - the price the item has: nothing to do (`same`), and no history point: a known state re-sent adds nothing;
 * - a line observed (`observed_at`) no later than the item's `priceSetAt`: older news than the
 *   price the item holds (`stale`);
 * - a line without `observed_at` that sends back the very price a write-back replaced, while the
 *   write-back's price is still the item's: a file made before the approval, not a new price (`stale`).
 *   A merchant who really went back to the old price says when (`observed_at` after the write-back);
 * - anything else is a price really in force since the line's time (`moved`).
 */
export const priceMove = (
  item: Pick<CatalogItem, "price" | "priceSetAt" | "writtenBackFrom">,
  price: number,
  observedAt: Timestamp | undefined
): PriceMove => {
  if (price === item.price) return "same"
  if (observedAt !== undefined) return observedAt <= item.priceSetAt ? "stale" : "moved"
  return item.writtenBackFrom === price ? "stale" : "moved"
}

type Amount = "price" | "cost" | "compareAtPrice" | "minPrice" | "maxPrice" | "competitorPrice"

const columnOf: Record<Amount, string> = {
  price: "price",
  cost: "cost",
  compareAtPrice: "compare_at_price",
  minPrice: "min_price",
  maxPrice: "max_price",
  competitorPrice: "competitor_price"
}

/** A patch's amount in minor units of `currency`; undefined = not mentioned, null = cleared. */
const amountOf = (
  patch: CatalogPatch,
  field: Amount,
  currency: CurrencyCode
): Result.Result<number | null | undefined, string> => {
  const text = patch[field]
  if (text === undefined || text === null) return Result.succeed(text)
  return Result.mapError(parseMajorUnits(text, currency), (reason) => `${columnOf[field]}: ${reason}`)
}

interface Amounts {
  readonly price: number | undefined
  readonly cost: number | null | undefined
  readonly compareAtPrice: number | null | undefined
  readonly minPrice: number | null | undefined
  readonly maxPrice: number | null | undefined
  readonly competitorPrice: number | null | undefined
}

const amountsOf = (patch: CatalogPatch, currency: CurrencyCode): Result.Result<Amounts, string> => {
  const price = amountOf(patch, "price", currency)
  if (Result.isFailure(price)) return Result.fail(price.failure)
  const cost = amountOf(patch, "cost", currency)
  if (Result.isFailure(cost)) return Result.fail(cost.failure)
  const compareAtPrice = amountOf(patch, "compareAtPrice", currency)
  if (Result.isFailure(compareAtPrice)) return Result.fail(compareAtPrice.failure)
  const minPrice = amountOf(patch, "minPrice", currency)
  if (Result.isFailure(minPrice)) return Result.fail(minPrice.failure)
  const maxPrice = amountOf(patch, "maxPrice", currency)
  if (Result.isFailure(maxPrice)) return Result.fail(maxPrice.failure)
  const competitorPrice = amountOf(patch, "competitorPrice", currency)
  if (Result.isFailure(competitorPrice)) return Result.fail(competitorPrice.failure)
  // The parser never lets a price be cleared (CatalogImport.cannotClear).
  if (price.success === null) return Result.fail("price cannot be cleared")
  return Result.succeed({
    price: price.success,
    cost: cost.success,
    compareAtPrice: compareAtPrice.success,
    minPrice: minPrice.success,
    maxPrice: maxPrice.success,
    competitorPrice: competitorPrice.success
  })
}

/** The patch's value where it mentions the field, else the item's. */
const keep = <A>(given: A | undefined, current: A): A => (given === undefined ? current : given)

const sameTags = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean =>
  a.length === b.length && a.every((tag, index) => tag === b[index])

/** The fields besides price and cost whose change counts as `otherChanged`. */
const otherFields = [
  "title",
  "compareAtPrice",
  "minPrice",
  "maxPrice",
  "inventory",
  "unitsSold30d",
  "unitsCountedAt",
  "storeProductRef",
  "storeVariantRef",
  "competitorPrice"
] as const

const decideNew = (patch: CatalogPatch, workspaceId: CatalogItem["workspaceId"], now: Timestamp): ImportDecision => {
  const missing = (["title", "currency", "price"] as const).filter((field) => patch[field] === undefined)
  if (patch.currency === undefined || patch.title === undefined || missing.length > 0) {
    return {
      _tag: "Rejected",
      error: `sku ${patch.sku} is not in the catalog: a new item needs ${missing.join(", ")}`
    }
  }
  const amounts = amountsOf(patch, patch.currency)
  if (Result.isFailure(amounts)) return { _tag: "Rejected", error: amounts.failure }
  const { price, cost, compareAtPrice, minPrice, maxPrice, competitorPrice } = amounts.success
  if (price === undefined) return { _tag: "Rejected", error: "price is required" }
  return {
    _tag: "Created",
    item: {
      workspaceId,
      sku: patch.sku,
      title: patch.title,
      tags: patch.tags ?? [],
      currency: patch.currency,
      price,
      cost: cost ?? null,
      compareAtPrice: compareAtPrice ?? null,
      minPrice: minPrice ?? null,
      maxPrice: maxPrice ?? null,
      inventory: patch.inventory ?? null,
      unitsSold30d: patch.unitsSold30d ?? 0,
      unitsCountedAt: patch.unitsSold30d === undefined ? null : (patch.observedAt ?? now),
      storeProductRef: patch.storeProductRef ?? null,
      storeVariantRef: patch.storeVariantRef ?? null,
      // The import is the first time the cost is seen (CatalogRepository.upsertMany).
      analysedCost: cost ?? null,
      priceHistory: [],
      competitorPrice: competitorPrice ?? null,
      priceSetAt: patch.observedAt ?? now,
      writtenBackFrom: null,
      createdAt: now,
      updatedAt: now
    }
  }
}

/**
 * What the line `patch` does to `current` (undefined: the sku is new to `workspaceId`), at `now`,
 * the time of the import. Fields the patch does not mention stay as they are; a price moves only as
 * `priceMove` allows, and then the outgoing price, with the units sold while it was in force,
 * becomes one point of the price history (as a write-back's price change does). Units counted for a
 * period the history has not recorded make the outgoing state a point even when the price stays
 * (PriceHistory.withUnits); units older than the item's are older news and are not taken.
 */
export const decideImportLine = (
  current: CatalogItem | undefined,
  patch: CatalogPatch,
  workspaceId: CatalogItem["workspaceId"],
  now: Timestamp
): ImportDecision => {
  if (patch.observedAt !== undefined && patch.observedAt > now) {
    return { _tag: "Rejected", error: "observed_at is later than the import: a price cannot be observed in the future" }
  }
  if (current === undefined) return decideNew(patch, workspaceId, now)
  if (patch.currency !== undefined && patch.currency !== current.currency) {
    return {
      _tag: "Rejected",
      error: `currency ${patch.currency} differs from the item's ${current.currency}: an item keeps its currency`
    }
  }
  const amounts = amountsOf(patch, current.currency)
  if (Result.isFailure(amounts)) return { _tag: "Rejected", error: amounts.failure }
  const { price, cost, compareAtPrice, minPrice, maxPrice, competitorPrice } = amounts.success
  const move = price === undefined ? "same" : priceMove(current, price, patch.observedAt)
  // The history from the outgoing state: the price first (its units were sold at the old price), then the units.
  const priced = move === "moved" && price !== undefined ? { ...current, ...withPrice(current, price) } : current
  // A store sync with orders brings the periods themselves (salesPeriods, below): its units are the
  // rolling count, never a period point of their own (the same sales would be counted twice).
  const counted =
    patch.unitsSold30d === undefined
      ? priced
      : patch.salesPeriods !== undefined
        ? patch.unitsSold30d === priced.unitsSold30d
          ? priced
          : { ...priced, unitsSold30d: patch.unitsSold30d, unitsCountedAt: patch.observedAt ?? now }
        : { ...priced, ...withUnits(priced, patch.unitsSold30d, patch.observedAt ?? now) }
  const next: CatalogItem = {
    ...current,
    title: keep(patch.title, current.title),
    tags: keep(patch.tags, current.tags),
    cost: keep(cost, current.cost),
    compareAtPrice: keep(compareAtPrice, current.compareAtPrice),
    minPrice: keep(minPrice, current.minPrice),
    maxPrice: keep(maxPrice, current.maxPrice),
    inventory: keep(patch.inventory, current.inventory),
    unitsSold30d: counted.unitsSold30d,
    unitsCountedAt: counted.unitsCountedAt,
    priceHistory: counted.priceHistory,
    storeProductRef: keep(patch.storeProductRef, current.storeProductRef),
    storeVariantRef: keep(patch.storeVariantRef, current.storeVariantRef),
    competitorPrice: keep(competitorPrice, current.competitorPrice),
    ...(move === "moved" && price !== undefined
      ? { price, priceSetAt: patch.observedAt ?? now, writtenBackFrom: null }
      : {}),
    updatedAt: now
  }
  const observed: CatalogItem =
    patch.salesPeriods === undefined
      ? next
      : { ...next, priceHistory: withSalesPeriods(next.priceHistory, patch.salesPeriods) }
  const priceChanged = move === "moved"
  const costChanged = next.cost !== current.cost
  const otherChanged =
    !sameTags(next.tags, current.tags) ||
    otherFields.some((field) => next[field] !== current[field]) ||
    (patch.salesPeriods !== undefined && !samePriceHistory(observed.priceHistory, next.priceHistory))
  const stalePrice = move === "stale"
  return priceChanged || costChanged || otherChanged
    ? { _tag: "Updated", item: observed, priceChanged, costChanged, otherChanged, stalePrice }
    : { _tag: "Unchanged", stalePrice }
}
