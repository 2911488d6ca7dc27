import { type AlertMutation, Alerts } from "@margin/core/AlertsService"
import { Caller, callerActor } from "@margin/edge/auth"
import { alertJson, idempotentRepeat, listJson, pageRequest } from "@margin/edge/wire"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, apiMiddlewares } from "./Api.ts"
import { isolatedGroup } from "./IsolatedGroup.ts"

const changed = (mutation: AlertMutation) =>
  mutation.idempotent
    ? idempotentRepeat
    : { ok: true as const, idempotent: false as const, alert: alertJson(mutation.alert) }

export const AlertsHandlers = isolatedGroup(
  Effect.gen(function* () {
    const alerts = yield* Alerts
    return HttpApiBuilder.group(Api, "alerts", (handlers) =>
      handlers.handleAll({
        listAlerts: ({ query }) =>
          Caller.use((caller) =>
            alerts.list(
              caller.workspaceId,
              { status: query.status ?? null, kind: query.kind ?? null, itemId: null },
              pageRequest(query)
            )
          ).pipe(Effect.map((page) => listJson(page, alertJson))),
        getAlert: ({ params }) =>
          Caller.use((caller) => alerts.get(caller.workspaceId, params.alert_id)).pipe(Effect.map(alertJson)),
        snoozeAlert: ({ params, payload }) =>
          Caller.use((caller) =>
            alerts.snooze(
              caller.workspaceId,
              params.alert_id,
              payload.snooze_until,
              payload.reason,
              callerActor(caller)
            )
          ).pipe(Effect.map(changed)),
        resolveAlert: ({ params }) =>
          Caller.use((caller) => alerts.resolve(caller.workspaceId, params.alert_id, callerActor(caller))).pipe(
            Effect.map(changed)
          ),
        dismissAlert: ({ params }) =>
          Caller.use((caller) => alerts.dismiss(caller.workspaceId, params.alert_id, callerActor(caller))).pipe(
            Effect.map(changed)
          )
      })
    )
  }),
  ...apiMiddlewares
)
