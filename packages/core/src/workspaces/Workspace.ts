import { Schema } from "effect"
import { WorkspaceId } from "../kernel/Ids.ts"
import { Timestamp } from "../kernel/Timestamp.ts"
import { PricingPolicy } from "../pricing/PricingPolicy.ts"
import { Plan } from "./Plan.ts"

export const LifecycleState = Schema.Literals(["trial", "active", "suspended"])
export type LifecycleState = typeof LifecycleState.Type

export const Workspace = Schema.Struct({
  id: WorkspaceId,
  name: Schema.String,
  plan: Plan,
  lifecycleState: LifecycleState,
  pricingPolicy: PricingPolicy,
  trialEndsAt: Schema.NullOr(Timestamp),
  createdAt: Timestamp
})
export type Workspace = typeof Workspace.Type
