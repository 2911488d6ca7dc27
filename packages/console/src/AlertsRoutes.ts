import type { AlertMutation } from "@margin/core/alerts/Alerts"
import type { InvalidInput, RepositoryError } from "@margin/core/kernel/Errors"
import type { CommandError } from "@margin/core/kernel/Settle"
import { toIso } from "@margin/core/kernel/Timestamp"
import { dismissAlert, listAlerts, resolveAlert, snoozeAlert } from "@margin/core/operations/OperationCatalogue"
import type { OperationCaller } from "@margin/core/operations/OperationInput"
import { inputSchemaOf } from "@margin/core/operations/OperationInput"
import { Clock, Effect, Result } from "effect"
import { HttpRouter } from "effect/http"
import { type AlertFilters, alertsPage } from "./AlertsPage.ts"
import { decodeForm, mayCall, sessionCaller } from "./CatalogueCall.ts"
import { type ConsoleHandler, type ConsoleKit, queryOf } from "./ConsoleKit.ts"
import { messagePage } from "./ConsolePage.ts"

export const alertsPaths = {
  alerts: "/app/w/:workspace_id/alerts",
  action: "/app/w/:workspace_id/alerts/:alert_id/:action"
} as const

/** The routes these handlers serve, for the console's route table. */
export const alertsRoutesTable = [
  { method: "GET", path: alertsPaths.alerts },
  { method: "POST", path: alertsPaths.action }
] as const

/** Alerts on one page of the list. */
const pageSize = "25"

const listInput = inputSchemaOf(listAlerts, "query")
const snoozeInput = inputSchemaOf(snoozeAlert, "query")
const alertInput = inputSchemaOf(resolveAlert, "query")

const pastTense = { snooze: "snoozed", resolve: "resolved", dismiss: "dismissed" } as const
type AlertAction = keyof typeof pastTense
const isAlertAction = (name: string): name is AlertAction =>
  name === "snooze" || name === "resolve" || name === "dismiss"

/**
 * The date picker's day (YYYY-MM-DD) as the instant the snooze ends: that day's start in UTC. Any
 * other text goes to the entry's own check as it is, which says what is wrong with it.
 */
const snoozeUntil = (day: string): string => (/^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T00:00:00Z` : day)

/** The alerts with their filters (GET), and snooze, resolve or dismiss one (POST), through the catalogue. */
export const alertsRoutes = <E>(kit: ConsoleKit<E>) =>
  Effect.gen(function* () {
    const list = yield* listAlerts.binding
    const bindings = {
      snooze: yield* snoozeAlert.binding,
      resolve: yield* resolveAlert.binding,
      dismiss: yield* dismissAlert.binding
    }

    /** The action's call, its form decoded by the entry's own input (snooze: the day picked and a reason). */
    const command = (
      action: AlertAction,
      id: string,
      form: URLSearchParams,
      caller: OperationCaller
    ): Result.Result<Effect.Effect<AlertMutation, InvalidInput | CommandError>, string> =>
      action === "snooze"
        ? Result.map(
            decodeForm(snoozeInput, {
              alert_id: id,
              snooze_until: snoozeUntil((form.get("snooze_until") ?? "").trim()),
              reason: (form.get("reason") ?? "").trim()
            }),
            (input) => bindings.snooze(input, caller)
          )
        : Result.map(decodeForm(alertInput, { alert_id: id }), (input) => bindings[action](input, caller))

    const showAlerts: ConsoleHandler<E | RepositoryError> = (request) =>
      Effect.gen(function* () {
        const place = yield* kit.inWorkspace(request, "alerts")
        if (place._tag === "Answer") return place.response
        const query = queryOf(request)
        const filters: AlertFilters = { status: query.get("status") ?? "", kind: query.get("kind") ?? "" }
        const cursor = query.get("cursor")
        const raw = Object.fromEntries(
          Object.entries({ ...filters, cursor: cursor ?? "" }).filter(([, value]) => value !== "")
        )
        const input = decodeForm(listInput, { limit: pageSize, ...raw })
        if (Result.isFailure(input)) {
          return messagePage(
            400,
            "Unknown filter",
            `These filters are not ones the console offers (${input.failure}).`,
            place.context
          )
        }
        const page = yield* list(input.success, sessionCaller(place))
        const done = query.get("done") ?? ""
        return kit.withCookies(
          alertsPage({
            context: place.context,
            workspaceId: place.workspaceId,
            mayAct: mayCall(place.role, resolveAlert),
            filters,
            alerts: page.items,
            cursor,
            nextCursor: page.nextCursor,
            today: toIso(yield* Clock.currentTimeMillis).slice(0, 10),
            notice: isAlertAction(done)
              ? `Alert ${pastTense[done]}.`
              : done === "repeat"
                ? "Nothing changed: it was already so."
                : null
          }),
          place.cookies
        )
      })

    const act: ConsoleHandler<E | RepositoryError> = (request) =>
      Effect.gen(function* () {
        const place = yield* kit.posted(request, "alerts")
        if (place._tag === "Answer") return place.response
        const params = yield* HttpRouter.params
        const id = params.alert_id ?? ""
        const action = params.action ?? ""
        if (!kit.isId(id) || !isAlertAction(action)) return kit.notFound(place.context)
        if (!mayCall(place.role, snoozeAlert)) {
          return messagePage(
            403,
            `Not ${pastTense[action]}`,
            `Your role (${place.role}) may not change alerts: it needs analyst or higher.`,
            place.context
          )
        }
        const caller = sessionCaller(place)
        const refused = (status: number, message: string) =>
          Effect.succeed(messagePage(status, `Not ${pastTense[action]}`, message, place.context))
        const run = command(action, id, place.form, caller)
        if (Result.isFailure(run)) return yield* refused(400, `Check the form: ${run.failure}.`)
        const back = `/app/w/${encodeURIComponent(place.workspaceId)}/alerts`
        return yield* run.success.pipe(
          Effect.map((mutation) => kit.redirect(`${back}?done=${mutation.idempotent ? "repeat" : action}`)),
          Effect.catchTag("InvalidInput", (error: InvalidInput) => refused(400, `${error.message}.`)),
          Effect.catchTag("ResourceNotFound", () => Effect.succeed(kit.notFound(place.context))),
          Effect.catchTag("TransitionConflict", (error) =>
            refused(409, `Conflict: the alert is ${error.status}, so it cannot be ${pastTense[action]} now.`)
          )
        )
      })

    return [
      ["GET", alertsPaths.alerts, showAlerts],
      ["POST", alertsPaths.action, act]
    ] as const
  })
