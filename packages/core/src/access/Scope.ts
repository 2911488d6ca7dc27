import { Schema } from "effect"

/** Every scope a token can carry: the contract's nine plus the additive `alerts:read` and `catalog:write`. */
export const scopes = [
  "runs:read",
  "runs:trigger",
  "recommendations:read",
  "recommendations:write",
  "recommendations:approve",
  "alerts:read",
  "alerts:write",
  "catalog:read",
  "catalog:write",
  "reports:read",
  "workspace:read"
] as const
export const Scope = Schema.Literals(scopes)
export type Scope = typeof Scope.Type
