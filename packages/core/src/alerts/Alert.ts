import { Schema } from "effect"
import * as Entity from "../kernel/Entity.ts"
import { AlertId, CatalogItemId, RunId } from "../kernel/Ids.ts"
import { AlertKind, AlertSeverity } from "../pricing/Pricing.ts"

/** Stored statuses. `snoozed` reads as `open` once `snoozedUntil` has passed (see AlertMachine.effectiveStatus). */
export const alertStatuses = ["open", "snoozed", "resolved", "dismissed"] as const
export const AlertStatus = Schema.Literals(alertStatuses)
export type AlertStatus = typeof AlertStatus.Type

const { field, same, instantOrNull, textOrNull } = Entity

/** The alert of the example run (docs/api.md shows the same): the example of the OpenAPI document. */
const exampleCreatedAt = 1_795_332_911_807

/**
 * An alert, declared once (kernel/Entity.ts): the order of the fields is the wire's. To add a field:
 * add it here, add its column in a migration, give the fixtures a value.
 */
export const AlertEntity = Entity.entity("Alert", {
  id: field(AlertId, {
    description: "The alert's id.",
    example: AlertId.make("alt_01m812wcp2a085c4msrpe0vft9"),
    column: ["id", "text"],
    wire: same("id", Schema.String)
  }),
  workspaceId: Entity.workspaceField,
  runId: field(Schema.NullOr(RunId), {
    description: "The run that raised it; null for one raised outside a run (a failed write-back).",
    example: RunId.make("run_01m812wcn0qwbxqcvcdxnynyxq"),
    column: ["run_id", "text"],
    wire: same("run_id", Schema.NullOr(Schema.String))
  }),
  itemId: field(Schema.NullOr(CatalogItemId), {
    description: "The catalog item it is about, if one.",
    example: CatalogItemId.make("itm_01m812wcjvfrvqkszqwppg2xqd"),
    column: ["item_id", "text"],
    wire: same("item_id", Schema.NullOr(Schema.String))
  }),
  kind: field(AlertKind, {
    description: "What it found (AlertFinding).",
    example: "below_floor",
    column: ["kind", "text"],
    wire: same("kind", AlertKind)
  }),
  severity: field(AlertSeverity, {
    description: "How much it matters.",
    example: "warning",
    column: ["severity", "text"],
    wire: same("severity", AlertSeverity)
  }),
  message: field(Schema.String, {
    description: "One human sentence: what is wrong and by how much.",
    example: "Price 50.99 USD is below the floor of 56.37 USD (the 15.0% minimum margin).",
    column: ["message", "text"],
    wire: same("message", Schema.String)
  }),
  status: field(AlertStatus, {
    description: "Stored status; on the wire the effective one (a snooze whose time has passed reads open).",
    example: "open",
    column: ["status", "text"],
    wire: same("status", AlertStatus)
  }),
  snoozedUntil: instantOrNull("snoozed_until", "Until when it is snoozed."),
  snoozeReason: textOrNull("snooze_reason", "Why it was snoozed."),
  resolvedAt: instantOrNull("resolved_at", "When it was resolved."),
  dismissedAt: instantOrNull("dismissed_at", "When it was dismissed."),
  ...Entity.versionStamps(exampleCreatedAt)
})

export const Alert = AlertEntity.schema
export type Alert = typeof Alert.Type
