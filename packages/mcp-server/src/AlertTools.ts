import { AlertStatus } from "@margin/core/Alert"
import { AlertKind } from "@margin/core/AlertFinding"
import { type AlertMutation, Alerts } from "@margin/core/AlertsService"
import { AlertId } from "@margin/core/Ids"
import {
  dismissAlert,
  getAlert,
  listAlerts,
  resolveAlert,
  snoozeAlert
} from "@margin/core/operations/OperationCatalogue"
import { callerActor } from "@margin/edge/auth"
import { AlertJson, alertJson, ListJson, listJson, pageRequest, SnoozeBody } from "@margin/edge/wire"
import { Effect, Schema } from "effect"
import { Toolkit } from "effect/ai"
import { marginTool, toolHandlers } from "./MarginTool.ts"
import { pageParams } from "./PageParams.ts"

const AlertParams = Schema.Struct({ alert_id: AlertId })

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
  parameters: Schema.Struct({
    ...pageParams,
    status: Schema.optionalKey(AlertStatus),
    kind: Schema.optionalKey(AlertKind)
  }),
  success: ListJson(AlertJson, "AlertList")
})

export const GetAlert = marginTool(getAlert, {
  parameters: AlertParams,
  success: AlertJson
})

export const SnoozeAlert = marginTool(snoozeAlert, {
  parameters: Schema.Struct({ ...AlertParams.fields, ...SnoozeBody.fields }),
  success: AlertMutationJson
})

export const ResolveAlert = marginTool(resolveAlert, {
  parameters: AlertParams,
  success: AlertMutationJson
})

export const DismissAlert = marginTool(dismissAlert, {
  parameters: AlertParams,
  success: AlertMutationJson
})

export const AlertTools = Toolkit.make(ListAlerts, GetAlert, SnoozeAlert, ResolveAlert, DismissAlert)

export const AlertToolsLayer = AlertTools.toLayer(
  Effect.gen(function* () {
    const alerts = yield* Alerts
    const handle = yield* toolHandlers
    return AlertTools.of({
      list_alerts: handle(ListAlerts, (params, caller) =>
        Effect.map(
          alerts.list(
            caller.workspaceId,
            { status: params.status ?? null, kind: params.kind ?? null, itemId: null },
            pageRequest(params)
          ),
          (page) => listJson(page, alertJson)
        )
      ),
      get_alert: handle(GetAlert, (params, caller) =>
        Effect.map(alerts.get(caller.workspaceId, params.alert_id), alertJson)
      ),
      snooze_alert: handle(SnoozeAlert, (params, caller) =>
        Effect.map(
          alerts.snooze(caller.workspaceId, params.alert_id, params.snooze_until, params.reason, callerActor(caller)),
          mutationJson
        )
      ),
      resolve_alert: handle(ResolveAlert, (params, caller) =>
        Effect.map(alerts.resolve(caller.workspaceId, params.alert_id, callerActor(caller)), mutationJson)
      ),
      dismiss_alert: handle(DismissAlert, (params, caller) =>
        Effect.map(alerts.dismiss(caller.workspaceId, params.alert_id, callerActor(caller)), mutationJson)
      )
    })
  })
)
