import { hasAtLeast, type Role } from "./Role.ts"
import { type Scope, scopes } from "./Scope.ts"

/** The least role each scope stands for: what a member of that role may already do themselves. */
const leastRole: Readonly<Record<Scope, Role>> = {
  "runs:read": "viewer",
  "recommendations:read": "viewer",
  "alerts:read": "viewer",
  "catalog:read": "viewer",
  "reports:read": "viewer",
  "workspace:read": "viewer",
  "runs:trigger": "analyst",
  "recommendations:write": "analyst",
  "alerts:write": "analyst",
  // Importing the catalog is an analyst's work, as triggering a run is.
  "catalog:write": "analyst",
  "recommendations:approve": "approver"
}

/** The scopes a member with `role` may put on an API key: never more than they may do themselves. */
export const scopesForRole = (role: Role): ReadonlyArray<Scope> =>
  scopes.filter((scope) => hasAtLeast(role, leastRole[scope]))
