// Throughput of the pure pricing engine on a synthetic catalog.
// Usage: npm run bench:pricing [-- <items>]   (default 1,000,000 items)
// The catalog is built from a fixed seed, so every run prices the same items.
import { type CurrencyCode, CurrencyCode as CurrencyCodeSchema } from "@margin/core/kernel/Money"
import { analyseCatalog, analyseItem, elasticityPools, type PricingInput } from "@margin/core/pricing/Pricing"
import { defaultPricingPolicy } from "@margin/core/pricing/PricingPolicy"
import { Schema } from "effect"

const count = Number(process.argv[2] ?? 1_000_000)
if (!Number.isSafeInteger(count) || count <= 0) {
  console.error(`usage: node bench/pricing.ts [items], got "${process.argv[2]}"`)
  process.exit(2)
}

// mulberry32: small, fast, and the same sequence on every machine.
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const currencies: ReadonlyArray<CurrencyCode> = ["USD", "USD", "EUR", "GBP", "JPY", "KWD"].map((code) =>
  Schema.decodeSync(CurrencyCodeSchema)(code)
)

// A catalog in storage order (by sku, as a repository reads it) that exercises every path: missing costs, losses, MAP floors, ceilings, drift, cost changes, histories.
// `offTarget` is the share of items whose margin is anywhere from -10 % to 70 %; the others sit within 0.3 points
// of the 35 % target, as a catalog the engine has priced before does.
const syntheticCatalog = (size: number, offTarget: number, seed: number): Array<PricingInput> => {
  const next = random(seed)
  const items: Array<PricingInput> = []
  for (let i = 0; i < size; i++) {
    const currency = currencies[Math.floor(next() * currencies.length)] ?? currencies[0]
    const scale = currency === "JPY" ? 1 : currency === "KWD" ? 10 : 1
    const price = Math.round((200 + next() * 20_000) * scale)
    const margin = next() < offTarget ? -0.1 + next() * 0.8 : 0.35 + (next() - 0.5) * 0.006
    const cost = next() < 0.05 ? null : Math.round(price * (1 - margin))
    const history: Array<{ price: number; units: number }> = []
    if (next() < 0.2) {
      const points = 2 + Math.floor(next() * 5)
      for (let p = 0; p < points; p++) {
        history.push({ price: Math.round(price * (0.8 + next() * 0.4)), units: 1 + Math.floor(next() * 200) })
      }
    }
    items.push({
      itemId: `item_${i.toString(36).padStart(6, "0")}`,
      sku: `SKU-${i.toString().padStart(8, "0")}`,
      currency,
      price,
      cost,
      minPrice: next() < 0.1 ? Math.round(price * (0.8 + next() * 0.4)) : null,
      maxPrice: next() < 0.1 ? Math.round(price * (1 + next() * 0.5)) : null,
      unitsSold30d: Math.floor(next() * 500),
      previousCost: cost !== null && next() < 0.5 ? cost + (next() < 0.2 ? Math.round(cost * 0.05) : 0) : null,
      storePrice: next() < 0.5 ? (next() < 0.03 ? price + 100 : price) : null,
      priceHistory: history,
      tags: [`category-${i % 10}`],
      competitorPrice: null
    })
  }
  return items
}

// Fisher-Yates with its own seed: the same "random" order on every run.
const shuffled = <A>(items: ReadonlyArray<A>, seed: number): Array<A> => {
  const next = random(seed)
  const copy = items.slice()
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    const swap = copy[i]
    const other = copy[j]
    if (swap === undefined || other === undefined) continue
    copy[i] = other
    copy[j] = swap
  }
  return copy
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
const rate = (items: number, ms: number) => `${Math.round((items / ms) * 1000).toLocaleString("en-US")} items/s`

const policy = defaultPricingPolicy

const scenario = (name: string, offTarget: number, alsoShuffled: boolean) => {
  const catalog = syntheticCatalog(count, offTarget, 20240601)
  // Warm up the JIT on a slice so the timed loops measure steady state.
  for (const input of catalog.slice(0, Math.min(count, 100_000))) analyseItem(input, policy)

  // Streaming: each analysis is dropped once counted, as a run that persists page by page would; like a
  // run, it pools the catalog's elasticities first (timed with it).
  let recommended = 0
  const started = performance.now()
  const pools = elasticityPools(catalog, policy.defaultElasticity)
  for (const input of catalog) if (analyseItem(input, policy, pools).recommendation !== null) recommended++
  const streamMs = performance.now() - started

  // Whole catalog: a sorted copy and every analysis held in memory at once (in sku order, then shuffled).
  const catalogStarted = performance.now()
  const analysis = analyseCatalog(catalog, policy)
  const catalogMs = performance.now() - catalogStarted
  if (analysis.recommendations !== recommended) throw new Error("the two passes disagree")

  console.log(`${name} (${Math.round(offTarget * 100)}% of items off target):`)
  console.log(`  analyseItem, streamed:          ${rate(count, streamMs)} (${streamMs.toFixed(0)} ms)`)
  console.log(`  analyseCatalog, in sku order:   ${rate(count, catalogMs)} (${catalogMs.toFixed(0)} ms)`)
  if (alsoShuffled) {
    const mixed = shuffled(catalog, 7)
    const mixedStarted = performance.now()
    const again = analyseCatalog(mixed, policy)
    const mixedMs = performance.now() - mixedStarted
    if (again.recommendations !== recommended) throw new Error("the shuffled catalog gave another result")
    console.log(`  analyseCatalog, shuffled input:  ${rate(count, mixedMs)} (${mixedMs.toFixed(0)} ms)`)
  }
  console.log(
    `  recommendations: ${analysis.recommendations.toLocaleString("en-US")}, alerts: ${analysis.alerts.toLocaleString("en-US")}, heap used: ${mb(process.memoryUsage().heapUsed)}`
  )
}

// A fixed amount of plain arithmetic, so figures from different machines can be compared.
const calibrate = () => {
  const started = performance.now()
  let sum = 0
  for (let i = 0; i < 100_000_000; i++) sum += i & 7
  const ns = ((performance.now() - started) * 1e6) / 100_000_000
  return `${ns.toFixed(2)} ns per simple loop step (checksum ${sum})`
}

console.log(`pricing engine, ${count.toLocaleString("en-US")} synthetic items, node ${process.version}, one thread`)
console.log(`machine speed: ${calibrate()}`)
scenario("steady catalog", 0.25, true)
scenario("full repricing", 1, false)
console.log(`peak RSS: ${mb(process.resourceUsage().maxRSS * 1024)}`)
