// The bench's flags: the forms of the market, the seeds, the sizes and the policies, so that anyone
// can try other markets and compare two policies in one run.
import { parseArgs } from "node:util"
import { defaultPricingPolicy, PricingPolicy } from "@margin/core/pricing/PricingPolicy"
import { Result, Schema } from "effect"
import { defaultForms, type MarketSwitches, parseForm, switchMeanings, switchNames } from "./MarketSwitches.ts"
import type { EngineArm } from "./Simulation.ts"

export const shopKinds = ["engine", "use-cases"] as const
export type ShopKind = (typeof shopKinds)[number]

export interface MarketOptions {
  readonly forms: ReadonlyArray<MarketSwitches>
  readonly seeds: ReadonlyArray<number>
  readonly items: number
  readonly categories: number
  /** The horizon without the `long` switch. */
  readonly cycles: number
  /** How the service is driven: the pure engine, or the use cases over the memory adapters. */
  readonly via: ShopKind
  /** The engine's arms: the policy, and with --ab a second one. */
  readonly arms: ReadonlyArray<EngineArm>
  /** Print every simulation's per-cycle detail (always for a single form and seed). */
  readonly detail: boolean
}

export const defaultMarketOptions = {
  seeds: [1, 2, 3],
  items: 10_000,
  categories: 8,
  cycles: 6,
  via: "engine"
} as const

export const usage = `usage: npm run bench:market -- [options]
  --switches <forms>  the forms of the market, comma-separated (default: tidy, each switch alone, all):
                      tidy, all, or switches joined by + (curves+shocks); the switches:
${switchNames.map((name) => `                        ${name.padEnd(12)}${switchMeanings[name]}`).join("\n")}
  --seeds <list>      the markets' seeds, comma-separated (default ${defaultMarketOptions.seeds.join(",")}); the same seed gives the same figures
  --items <n>         catalog items (default ${defaultMarketOptions.items.toLocaleString("en-US")})
  --categories <n>    categories, each with its own true elasticity in [-4.0, -1.2] (default ${defaultMarketOptions.categories})
  --cycles <n>        runs, each followed by 30 days of demand, without the long switch (default ${defaultMarketOptions.cycles})
  --via <how>         engine: the pure analyseCatalog with the repository's history rule (default);
                      use-cases: imports, runs and approvals over the in-memory adapters (slower)
  --policy <k=v,...>  the engine's policy: the default with these fields (camelCase), e.g. threshold=0.02
  --ab <k=v,...>      a second engine arm, the policy with these fields too (e.g. objective="target_margin"),
                      lived in the same markets: two policies compared in one run
  --detail            every simulation's per-cycle detail (always printed for one form and one seed)
  --help              this text`

const flags = {
  switches: { type: "string" },
  seeds: { type: "string" },
  items: { type: "string" },
  categories: { type: "string" },
  cycles: { type: "string" },
  via: { type: "string" },
  policy: { type: "string" },
  ab: { type: "string" },
  detail: { type: "boolean" },
  help: { type: "boolean" }
} as const

/** A flag's value: null, a boolean, a number, or else a string (quotes optional). */
const fieldValue = (raw: string): unknown => {
  if (raw === "null") return null
  if (raw === "true" || raw === "false") return raw === "true"
  const n = Number(raw)
  return raw !== "" && Number.isFinite(n) ? n : raw.replace(/^"(.*)"$/, "$1")
}

const decodePolicy = Schema.decodeUnknownResult(PricingPolicy)

/** The policy `base` with `text`'s fields (`key=value,...`, values as JSON, bare words as strings), or why not. */
export const policyWith = (base: PricingPolicy, text: string): PricingPolicy | string => {
  const fields: Record<string, unknown> = { ...base }
  for (const pair of text.split(",")) {
    const at = pair.indexOf("=")
    const key = pair.slice(0, at).trim()
    if (at < 1 || !(key in base))
      return `"${pair}" is not field=value of a pricing policy (${Object.keys(base).join(", ")})`
    const raw = pair.slice(at + 1).trim()
    fields[key] = fieldValue(raw)
  }
  const decoded = decodePolicy(fields)
  return Result.isFailure(decoded) ? `not a valid policy: ${String(decoded.failure)}` : decoded.success
}

const wholeNumber = (raw: unknown, min: number): number => {
  const n = Number(raw)
  return typeof raw === "string" && /^\d+$/.test(raw) && Number.isSafeInteger(n) && n >= min ? n : Number.NaN
}

/** The options, or the reason they are wrong (null for --help). */
export const parseMarketOptions = (args: ReadonlyArray<string>): MarketOptions | string | null => {
  const parsed = parseArgs({ args: [...args], strict: false, options: flags })
  const { values, positionals } = parsed
  if (values.help === true) return null
  if (positionals.length > 0) return `unexpected argument "${positionals[0]}"`
  // Not strict, so that a wrong flag gets this answer rather than a stack trace.
  const unknown = Object.keys(values).find((name) => !(name in flags))
  if (unknown !== undefined) return `unknown flag --${unknown}`
  const integer = (name: "items" | "categories" | "cycles"): number =>
    values[name] === undefined ? defaultMarketOptions[name] : wholeNumber(values[name], 1)
  const items = integer("items")
  const categories = integer("categories")
  const cycles = integer("cycles")
  const wrong = Object.entries({ items, categories, cycles }).find(([, value]) => Number.isNaN(value))
  if (wrong !== undefined) return `--${wrong[0]} must be a whole number of at least 1`
  const seeds =
    typeof values.seeds === "string"
      ? values.seeds.split(",").map((seed) => wholeNumber(seed.trim(), 0))
      : [...defaultMarketOptions.seeds]
  if (seeds.some(Number.isNaN)) return "--seeds must be whole numbers separated by commas"
  const forms: Array<MarketSwitches> = []
  for (const text of typeof values.switches === "string" ? values.switches.split(",") : []) {
    const form = parseForm(text.trim())
    if (typeof form === "string") return `--switches: ${form}`
    forms.push(form)
  }
  const via = values.via ?? defaultMarketOptions.via
  const kind = shopKinds.find((candidate) => candidate === via)
  if (kind === undefined) return `--via must be one of ${shopKinds.join(", ")}`
  const policy =
    typeof values.policy === "string" ? policyWith(defaultPricingPolicy, values.policy) : defaultPricingPolicy
  if (typeof policy === "string") return `--policy: ${policy}`
  const arms: Array<EngineArm> = [{ name: "engine", policy }]
  if (typeof values.ab === "string") {
    const other = policyWith(policy, values.ab)
    if (typeof other === "string") return `--ab: ${other}`
    arms.push({ name: "ab", policy: other })
  }
  return {
    forms: forms.length === 0 ? defaultForms : forms,
    seeds,
    items,
    categories,
    cycles,
    via: kind,
    arms,
    detail: values.detail === true || (forms.length === 1 && seeds.length === 1)
  }
}
