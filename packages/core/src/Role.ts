import { Schema } from "effect"

/** Workspace roles, lowest first; the order is the privilege order. */
export const roles = ["viewer", "analyst", "approver", "admin", "owner"] as const
export const Role = Schema.Literals(roles)
export type Role = typeof Role.Type

export const roleRank = (role: Role): number => roles.indexOf(role)
export const hasAtLeast = (role: Role, minimum: Role): boolean => roleRank(role) >= roleRank(minimum)
