import { Context, type Effect } from "effect"

/** The contract's default budget: 60 requests a minute per key (docs/contract.md, limits). */
export const defaultRequestsPerMinute = 60

export type BudgetDecision =
  | { readonly _tag: "Allowed"; readonly remaining: number }
  | { readonly _tag: "Limited"; readonly retryAfterSeconds: number }

/**
 * One fixed-window request budget per key (`token:<id>`, `user:<id>`, `grant:<id>`), shared by
 * every front door. `consume` counts the request whatever its outcome.
 */
export class RateBudget extends Context.Service<
  RateBudget,
  {
    readonly consume: (key: string, now: number) => Effect.Effect<BudgetDecision>
  }
>()("margin/core/RateBudget") {}
