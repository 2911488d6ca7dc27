/** Builders for pricing tests: an item at exactly the default 35 % target margin, and policies near the default. */
import { CurrencyCode } from "../kernel/Money.ts"
import type { PricingInput } from "../pricing/Pricing.ts"
import { defaultPricingPolicy, type PricingPolicy } from "../pricing/PricingPolicy.ts"

export const USD = CurrencyCode.make("USD")
export const JPY = CurrencyCode.make("JPY")
export const KWD = CurrencyCode.make("KWD")

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
  tags: [],
  competitorPrice: null,
  ...overrides
})

export const pricingPolicy = (overrides: Partial<PricingPolicy> = {}): PricingPolicy => ({
  ...defaultPricingPolicy,
  ...overrides
})
