/** Builders for pricing tests: an item at exactly the default 35 % target margin, and policies near the default. */
import { Schema } from "effect"
import { CurrencyCode } from "./Money.ts"
import type { PricingInput } from "./Pricing.ts"
import { defaultPricingPolicy, type PricingPolicy } from "./PricingPolicy.ts"

export const currency = (code: string): CurrencyCode => Schema.decodeSync(CurrencyCode)(code)
export const USD = currency("USD")
export const JPY = currency("JPY")
export const KWD = currency("KWD")

/** 10.00 USD at a cost of 6.50: margin 35 %, the default target, so no recommendation. */
export const pricingInput = (overrides: Partial<PricingInput> = {}): PricingInput => ({
  itemId: "item_1",
  sku: "SKU-1",
  currency: USD,
  price: 1000,
  cost: 650,
  minPrice: null,
  maxPrice: null,
  unitsSold30d: 100,
  previousCost: null,
  storePrice: null,
  priceHistory: [],
  ...overrides
})

export const pricingPolicy = (overrides: Partial<PricingPolicy> = {}): PricingPolicy => ({
  ...defaultPricingPolicy,
  ...overrides
})
