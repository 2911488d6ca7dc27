import type { AlertMutation } from "@margin/core/alerts/Alerts"
import {
  dismissAlert,
  getAlert,
  listAlerts,
  resolveAlert,
  snoozeAlert
} from "@margin/core/operations/OperationCatalogue"
import { AlertJson, alertJson, ListJson, listJson } from "@margin/edge/wire"
import { Effect, Schema } from "effect"
import { Toolkit } from "effect/ai"
import { marginTool, toolHandlers, toolParameters } from "./MarginTool.ts"

/** A command's answer: the alert as it now is, and whether the command had already taken effect. */
export const AlertMutationJson = Schema.Struct({
  ok: Schema.Literal(true),
  /** true: the command had already taken effect and changed nothing now. */
  idempotent: Schema.Boolean,
  alert: AlertJson
}).annotate({ identifier: "AlertMutation" })

const mutationJson = (mutation: AlertMutation) => ({
  ok: true as const,
  idempotent: mutation.idempotent,
  alert: alertJson(mutation.alert)
})

export const ListAlerts = marginTool(listAlerts, {
  parameters: toolParameters(listAlerts),
  success: ListJson(AlertJson, "AlertList")
})

export const GetAlert = marginTool(getAlert, {
  parameters: toolParameters(getAlert),
  success: AlertJson
})

export const SnoozeAlert = marginTool(snoozeAlert, {
  parameters: toolParameters(snoozeAlert),
  success: AlertMutationJson
})

export const ResolveAlert = marginTool(resolveAlert, {
  parameters: toolParameters(resolveAlert),
  success: AlertMutationJson
})

export const DismissAlert = marginTool(dismissAlert, {
  parameters: toolParameters(dismissAlert),
  success: AlertMutationJson
})

export const AlertTools = Toolkit.make(ListAlerts, GetAlert, SnoozeAlert, ResolveAlert, DismissAlert)

export const AlertToolsLayer = AlertTools.toLayer(
  Effect.gen(function* () {
    const handle = yield* toolHandlers
    return AlertTools.of({
      list_alerts: handle(ListAlerts, yield* listAlerts.binding, (page) => listJson(page, alertJson)),
      get_alert: handle(GetAlert, yield* getAlert.binding, alertJson),
      snooze_alert: handle(SnoozeAlert, yield* snoozeAlert.binding, mutationJson),
      resolve_alert: handle(ResolveAlert, yield* resolveAlert.binding, mutationJson),
      dismiss_alert: handle(DismissAlert, yield* dismissAlert.binding, mutationJson)
    })
  })
)
