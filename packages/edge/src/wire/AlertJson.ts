import { type Alert, AlertStatus } from "@margin/core/alerts/Alert"
import { AlertKind, AlertSeverity } from "@margin/core/alerts/AlertFinding"
import { toIso } from "@margin/core/kernel/Timestamp"
import { Schema } from "effect"
import { tookEffectFields } from "./MutationJson.ts"
import { IsoTimestamp, isoOrNull } from "./TimestampJson.ts"

export const AlertJson = Schema.Struct({
  id: Schema.String,
  run_id: Schema.NullOr(Schema.String),
  item_id: Schema.NullOr(Schema.String),
  kind: AlertKind,
  severity: AlertSeverity,
  message: Schema.String,
  /** Effective status: a snooze whose time has passed reads `open`. */
  status: AlertStatus,
  snoozed_until: Schema.NullOr(IsoTimestamp),
  snooze_reason: Schema.NullOr(Schema.String),
  resolved_at: Schema.NullOr(IsoTimestamp),
  dismissed_at: Schema.NullOr(IsoTimestamp),
  created_at: IsoTimestamp,
  updated_at: IsoTimestamp
}).annotate({ identifier: "Alert" })
export type AlertJson = typeof AlertJson.Type

export const alertJson = (alert: Alert): AlertJson => ({
  id: alert.id,
  run_id: alert.runId,
  item_id: alert.itemId,
  kind: alert.kind,
  severity: alert.severity,
  message: alert.message,
  status: alert.status,
  snoozed_until: isoOrNull(alert.snoozedUntil),
  snooze_reason: alert.snoozeReason,
  resolved_at: isoOrNull(alert.resolvedAt),
  dismissed_at: isoOrNull(alert.dismissedAt),
  created_at: toIso(alert.createdAt),
  updated_at: toIso(alert.updatedAt)
})

/** Snooze, resolve and dismiss that took effect now. */
export const AlertChangedJson = Schema.Struct({
  ...tookEffectFields,
  alert: AlertJson
}).annotate({ identifier: "AlertChanged" })
