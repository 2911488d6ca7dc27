import { Schema } from "effect"
import { WorkspaceId } from "./Ids.ts"
import { Plan } from "./Plan.ts"
import { PricingPolicy } from "./PricingPolicy.ts"
import { Timestamp } from "./Timestamp.ts"

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
