import { Schema } from "effect"
import { AlertId, CatalogItemId, RunId, WorkspaceId } from "../kernel/Ids.ts"
import { Timestamp } from "../kernel/Timestamp.ts"
import { AlertKind, AlertSeverity } from "../pricing/Pricing.ts"

/** Stored statuses. `snoozed` reads as `open` once `snoozedUntil` has passed (see AlertMachine.effectiveStatus). */
export const alertStatuses = ["open", "snoozed", "resolved", "dismissed"] as const
export const AlertStatus = Schema.Literals(alertStatuses)
export type AlertStatus = typeof AlertStatus.Type

export const Alert = Schema.Struct({
  id: AlertId,
  workspaceId: WorkspaceId,
  runId: Schema.NullOr(RunId),
  itemId: Schema.NullOr(CatalogItemId),
  kind: AlertKind,
  severity: AlertSeverity,
  message: Schema.String,
  status: AlertStatus,
  snoozedUntil: Schema.NullOr(Timestamp),
  snoozeReason: Schema.NullOr(Schema.String),
  resolvedAt: Schema.NullOr(Timestamp),
  dismissedAt: Schema.NullOr(Timestamp),
  version: Schema.Number,
  createdAt: Timestamp,
  updatedAt: Timestamp
})
export type Alert = typeof Alert.Type
