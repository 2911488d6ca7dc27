import { type Alert, AlertEntity } from "@margin/core/alerts/Alert"
import { Schema } from "effect"
import { entityJson } from "./EntityJson.ts"
import { tookEffectFields } from "./MutationJson.ts"

const wire = entityJson(AlertEntity)

/** An alert on the wire, derived from its declaration (core's Alert.ts). Its status is the effective one. */
export const AlertJson = wire.schema
export type AlertJson = typeof AlertJson.Type

export const alertJson: (alert: Alert) => AlertJson = wire.encode

/** Snooze, resolve and dismiss that took effect now. */
export const AlertChangedJson = Schema.Struct({
  ...tookEffectFields,
  alert: AlertJson
}).annotate({ identifier: "AlertChanged" })
