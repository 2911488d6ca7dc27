import { Schema } from "effect"

export const plans = ["free", "pro", "max", "enterprise"] as const
export const Plan = Schema.Literals(plans)
export type Plan = typeof Plan.Type

export interface PlanLimits {
  /** Runs a workspace may trigger per calendar month (UTC); null = unlimited. */
  readonly runsPerMonth: number | null
  /** Catalog items a workspace may hold; null = unlimited. */
  readonly catalogItems: number | null
  /** Approve with store write-back. */
  readonly writeBack: boolean
  /** The MCP server. */
  readonly mcp: boolean
}

/** docs/contract.md, "Who may call" (the plans). */
export const planLimits: Record<Plan, PlanLimits> = {
  free: { runsPerMonth: 10, catalogItems: 1_000, writeBack: false, mcp: false },
  pro: { runsPerMonth: 200, catalogItems: 50_000, writeBack: false, mcp: false },
  max: { runsPerMonth: null, catalogItems: 500_000, writeBack: true, mcp: true },
  enterprise: { runsPerMonth: null, catalogItems: null, writeBack: true, mcp: true }
}
