// The conditions a real market adds to the tidy one, each switchable (issue 40). A form of the market
// is a set of them: none (tidy), one alone, or all together.

export const switchNames = ["curves", "shocks", "costs", "competitors", "sparse", "long"] as const
export type SwitchName = (typeof switchNames)[number]

/** A form of the market: which conditions are on. */
export type MarketSwitches = Readonly<Record<SwitchName, boolean>>

/** What each switch models, as the bench's help and report print it. */
export const switchMeanings: Readonly<Record<SwitchName, string>> = {
  curves: "demand whose elasticity changes with price: half the items on a linear curve, half on a logit one",
  shocks: "a demand shock per category and period: season, trend and noise",
  costs: "a supplier cost increase of 12 % in two categories mid-way, imported through `cost`",
  competitors:
    "a competitor price on 60 % of items, moving and running promotions, imported through `competitor_price`; demand falls off above it (max_premium_over_competitor 0.10)",
  sparse: "10 % of items arriving mid-way without history, and 15 % selling 1-3 units a month",
  long: "12 cycles instead of the --cycles default"
}

export const tidy: MarketSwitches = {
  curves: false,
  shocks: false,
  costs: false,
  competitors: false,
  sparse: false,
  long: false
}

export const allOn: MarketSwitches = {
  curves: true,
  shocks: true,
  costs: true,
  competitors: true,
  sparse: true,
  long: true
}

/** The form's name: `tidy`, `all`, or its switches joined by `+`. */
export const formName = (switches: MarketSwitches): string => {
  const on = switchNames.filter((name) => switches[name])
  return on.length === 0 ? "tidy" : on.length === switchNames.length ? "all" : on.join("+")
}

/** The forms the bench prints by default: tidy, each switch alone, all together. */
export const defaultForms: ReadonlyArray<MarketSwitches> = [
  tidy,
  ...switchNames.map((name) => ({ ...tidy, [name]: true })),
  allOn
]

/** A form from its name (`tidy`, `all`, `curves`, `curves+shocks`...), or the reason it is not one. */
export const parseForm = (text: string): MarketSwitches | string => {
  if (text === "tidy") return tidy
  if (text === "all") return allOn
  const switches: Record<SwitchName, boolean> = { ...tidy }
  for (const part of text.split("+")) {
    const name = switchNames.find((candidate) => candidate === part)
    if (name === undefined) return `unknown switch "${part}" (tidy, all, or ${switchNames.join(", ")}, joined by +)`
    switches[name] = true
  }
  return switches
}
