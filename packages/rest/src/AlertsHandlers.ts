import type { AlertMutation } from "@margin/core/alerts/Alerts"
import {
  dismissAlert,
  getAlert,
  listAlerts,
  resolveAlert,
  snoozeAlert
} from "@margin/core/operations/OperationCatalogue"
import { alertJson, idempotentRepeat, listJson } from "@margin/edge/wire"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, apiMiddlewares } from "./Api.ts"
import { isolatedGroup } from "./IsolatedGroup.ts"
import { answer } from "./OperationEndpoint.ts"

const changed = (mutation: AlertMutation) =>
  mutation.idempotent
    ? idempotentRepeat
    : { ok: true as const, idempotent: false as const, alert: alertJson(mutation.alert) }

export const AlertsHandlers = isolatedGroup(
  Effect.gen(function* () {
    const list = answer(yield* listAlerts.binding, (page) => listJson(page, alertJson))
    const get = answer(yield* getAlert.binding, alertJson)
    const snooze = answer(yield* snoozeAlert.binding, changed)
    const resolve = answer(yield* resolveAlert.binding, changed)
    const dismiss = answer(yield* dismissAlert.binding, changed)
    return HttpApiBuilder.group(Api, "alerts", (handlers) =>
      handlers.handleAll({
        listAlerts: ({ query }) => list(query),
        getAlert: ({ params }) => get(params),
        snoozeAlert: ({ params, payload }) => snooze({ ...params, ...payload }),
        resolveAlert: ({ params }) => resolve(params),
        dismissAlert: ({ params }) => dismiss(params)
      })
    )
  }),
  ...apiMiddlewares
)
