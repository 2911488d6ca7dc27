import type { RepositoryError } from "@margin/core/kernel/Errors"
import { getRun, listRuns, triggerRun } from "@margin/core/operations/OperationCatalogue"
import { inputSchemaOf } from "@margin/core/operations/OperationInput"
import type { TriggerError } from "@margin/core/runs/Runs"
import { Effect, Result } from "effect"
import { HttpRouter } from "effect/http"
import { decodeForm, mayCall, sessionCaller } from "./CatalogueCall.ts"
import type { InWorkspace } from "./ConsoleKit.ts"
import { type ConsoleHandler, type ConsoleKit, queryOf } from "./ConsoleKit.ts"
import { messagePage } from "./ConsolePage.ts"
import { emptyTriggerForm, runPage, runsPage, type TriggerFormState } from "./RunsPage.ts"

export const runsPaths = {
  runs: "/app/w/:workspace_id/runs",
  run: "/app/w/:workspace_id/runs/:run_id"
} as const

/** The routes these handlers serve, for the console's route table. */
export const runsRoutesTable = [
  { method: "GET", path: runsPaths.runs },
  { method: "POST", path: runsPaths.runs },
  { method: "GET", path: runsPaths.run }
] as const

/** Runs on one page of the history. */
const pageSize = "25"

const listInput = inputSchemaOf(listRuns, "query")
const triggerInput = inputSchemaOf(triggerRun, "query")
const getInput = inputSchemaOf(getRun, "query")

/** Why a trigger was refused, as the form shows it. */
const triggerRefusal = (error: TriggerError): { readonly status: number; readonly message: string } => {
  switch (error._tag) {
    case "EmailNotConfirmed":
      return { status: 403, message: "Confirm your e-mail address first: runs are started by confirmed people." }
    case "PlanLimitExceeded":
      return {
        status: 429,
        message:
          error.limit === "runs_per_month"
            ? `Your plan allows ${error.allowed} runs a month, and ${error.used} have run: the next month starts afresh.`
            : `Your plan prices up to ${error.allowed} catalog items; this catalog has ${error.used}.`
      }
    case "InvalidInput":
      return { status: 400, message: `${error.path}: ${error.message}.` }
    case "ResourceNotFound":
      return { status: 404, message: "This workspace no longer exists." }
    case "RepositoryError":
      return { status: 503, message: "The service could not reach its database: try again." }
  }
}

/** The runs' history with the trigger form (GET, POST) and one run's live progress (GET), through the catalogue. */
export const runsRoutes = <E>(kit: ConsoleKit<E>) =>
  Effect.gen(function* () {
    const list = yield* listRuns.binding
    const trigger = yield* triggerRun.binding
    const get = yield* getRun.binding

    const history = (
      place: InWorkspace,
      query: URLSearchParams,
      form: TriggerFormState = emptyTriggerForm,
      status?: number
    ) =>
      Effect.gen(function* () {
        const cursor = query.get("cursor")
        const input = decodeForm(listInput, { limit: pageSize, ...(cursor === null ? {} : { cursor }) })
        if (Result.isFailure(input)) {
          return messagePage(400, "Unknown page", "This page link is not one the console made.", place.context)
        }
        const page = yield* list(input.success, sessionCaller(place))
        return kit.withCookies(
          runsPage({
            context: place.context,
            workspaceId: place.workspaceId,
            mayTrigger: mayCall(place.role, triggerRun),
            runs: page.items,
            cursor,
            nextCursor: page.nextCursor,
            form,
            ...(status === undefined ? {} : { status })
          }),
          place.cookies
        )
      })

    const showRuns: ConsoleHandler<E | RepositoryError> = (request) =>
      Effect.gen(function* () {
        const place = yield* kit.inWorkspace(request, "runs")
        if (place._tag === "Answer") return place.response
        return yield* history(place, queryOf(request))
      })

    const startRun: ConsoleHandler<E | RepositoryError> = (request) =>
      Effect.gen(function* () {
        const place = yield* kit.posted(request, "runs")
        if (place._tag === "Answer") return place.response
        if (!mayCall(place.role, triggerRun)) {
          return messagePage(
            403,
            "Not started",
            `Your role (${place.role}) may not start runs: it needs analyst or higher.`,
            place.context
          )
        }
        const tags = (place.form.get("tags") ?? "").slice(0, 10_000)
        const subsetTags = tags
          .split(",")
          .map((tag) => tag.trim())
          .filter((tag) => tag !== "")
        const input = decodeForm(triggerInput, { subset_tags: subsetTags })
        if (Result.isFailure(input)) {
          return yield* history(place, new URLSearchParams(), { tags, error: `Tags: ${input.failure}` }, 400)
        }
        return yield* trigger(input.success, sessionCaller(place)).pipe(
          Effect.map((run) =>
            kit.redirect(`/app/w/${encodeURIComponent(place.workspaceId)}/runs/${encodeURIComponent(run.id)}?started=1`)
          ),
          Effect.catchTag(["EmailNotConfirmed", "PlanLimitExceeded", "InvalidInput", "ResourceNotFound"], (error) => {
            const refused = triggerRefusal(error)
            return history(place, new URLSearchParams(), { tags, error: refused.message }, refused.status)
          })
        )
      })

    const showRun: ConsoleHandler<E | RepositoryError> = (request) =>
      Effect.gen(function* () {
        const place = yield* kit.inWorkspace(request, "runs")
        if (place._tag === "Answer") return place.response
        const id = (yield* HttpRouter.params).run_id ?? ""
        const input = decodeForm(getInput, { run_id: id })
        if (!kit.isId(id) || Result.isFailure(input)) return kit.notFound(place.context)
        return yield* get(input.success, sessionCaller(place)).pipe(
          Effect.map((run) =>
            kit.withCookies(
              runPage({
                context: place.context,
                workspaceId: place.workspaceId,
                run,
                notice: queryOf(request).get("started") === null ? null : "Run queued: it starts in a moment."
              }),
              place.cookies
            )
          ),
          Effect.catchTag("ResourceNotFound", () => Effect.succeed(kit.notFound(place.context)))
        )
      })

    return [
      ["GET", runsPaths.runs, showRuns],
      ["POST", runsPaths.runs, startRun],
      ["GET", runsPaths.run, showRun]
    ] as const
  })
