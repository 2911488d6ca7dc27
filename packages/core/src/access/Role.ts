import { Schema } from "effect"

/** Workspace roles, lowest first; the order is the privilege order. */
export const roles = ["viewer", "analyst", "approver", "admin", "owner"] as const
export const Role = Schema.Literals(roles)
export type Role = typeof Role.Type

export const roleRank = (role: Role): number => roles.indexOf(role)
export const hasAtLeast = (role: Role, minimum: Role): boolean => roleRank(role) >= roleRank(minimum)

/** Approve and reject need this role or a higher one: approver, admin, owner (docs/contract.md, roles). */
export const deciderRole: Role = "approver"

/** Whether a caller with `role` (null: no longer a member) may approve and reject. */
export const mayDecide = (role: Role | null): boolean => role !== null && hasAtLeast(role, deciderRole)

/**
 * Accept and dismiss (and the console's other triage actions) need analyst or higher: a viewer
 * only reads. The contract leaves these to scopes over REST; the console applies the role.
 */
export const mayTriage = (role: Role | null): boolean => role !== null && hasAtLeast(role, "analyst")

/** API keys (and the workspace's other settings) need admin or owner. */
export const mayManage = (role: Role | null): boolean => role !== null && hasAtLeast(role, "admin")
