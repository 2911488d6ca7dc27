import { Schema } from "effect"
import { UserId, WorkspaceId } from "../kernel/Ids.ts"
import { Role } from "./Role.ts"

export const Membership = Schema.Struct({
  workspaceId: WorkspaceId,
  userId: UserId,
  role: Role
})
export type Membership = typeof Membership.Type
