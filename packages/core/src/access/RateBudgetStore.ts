import { Context, type Effect } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { BudgetDecision } from "./RateBudget.ts"

/**
 * Where the budget is counted when every process shares it (PostgreSQL, Redis): one fixed-window
 * counter per key, exact across processes, but a store that can fail. A server's RateBudget is
 * such a store with a memory fallback for its outages (FallbackRateBudget of @margin/runtime).
 */
export class RateBudgetStore extends Context.Service<
  RateBudgetStore,
  {
    /** The store's name in logs: `postgres`, `redis`. */
    readonly name: string
    /** Requests allowed per key and window, the limit `consume` decides with. */
    readonly limit: number
    /** Counts the request in the key's current window; fails when the store cannot count it. */
    readonly consume: (key: string, now: number) => Effect.Effect<BudgetDecision, RepositoryError>
  }
>()("margin/core/RateBudgetStore") {}
