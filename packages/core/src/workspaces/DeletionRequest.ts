import { Schema } from "effect"
import { DeletionRequestId, UserId } from "../kernel/Ids.ts"
import { Timestamp } from "../kernel/Timestamp.ts"

export const DeletionState = Schema.Literals(["pending", "blocked", "done", "cancelled"])
export type DeletionState = typeof DeletionState.Type

/** A user's request to delete their account. */
export const DeletionRequest = Schema.Struct({
  id: DeletionRequestId,
  userId: UserId,
  state: DeletionState,
  /** When the deletion was scheduled. */
  scheduledAt: Timestamp,
  /** The purge cannot happen before this instant. */
  effectiveAt: Timestamp
})
export type DeletionRequest = typeof DeletionRequest.Type

export const isDeletionActive = (request: DeletionRequest): boolean =>
  request.state === "pending" || request.state === "blocked"
