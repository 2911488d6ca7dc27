import type { RepositoryError } from "@margin/core/kernel/Errors"
import { undoPriceChange } from "@margin/core/operations/OperationCatalogue"
import { inputSchemaOf } from "@margin/core/operations/OperationInput"
import { PriceChanges, type UndoError } from "@margin/core/writeback/PriceChanges"
import { Effect, Result } from "effect"
import { HttpRouter } from "effect/http"
import { decodeForm, sessionCaller } from "./CatalogueCall.ts"
import { type ConsoleHandler, type ConsoleKit, queryOf } from "./ConsoleKit.ts"
import { messagePage } from "./ConsolePage.ts"
import { cursorFrom } from "./PagerLinks.ts"
import { priceChangesPage } from "./PriceChangesPage.ts"

export const priceChangesPaths = {
  changes: "/app/w/:workspace_id/changes",
  undo: "/app/w/:workspace_id/changes/:recommendation_id/undo"
} as const

/** The routes these handlers serve, for the console's route table. */
export const priceChangesRoutesTable = [
  { method: "GET", path: priceChangesPaths.changes },
  { method: "POST", path: priceChangesPaths.undo }
] as const

const undoInput = inputSchemaOf(undoPriceChange, "query")

/** Changes on one page of "What changed". */
const pageSize = 25

/** The page's words for a refused undo, with the status a REST client would get. */
const refusal = (error: UndoError): { readonly status: number; readonly message: string } => {
  switch (error._tag) {
    case "ForbiddenRole":
      return {
        status: 403,
        message: `Your role (${error.role ?? "none"}) may not undo: it needs approver, admin or owner.`
      }
    case "ResourceNotFound":
      return { status: 404, message: "No such price change in this workspace." }
    case "TransitionConflict":
      return { status: 409, message: `Not undone: ${error.reason}.` }
    case "TierIneligible":
      return {
        status: 422,
        message: `The ${error.plan} plan does not write prices back: undoing needs Max or Enterprise.`
      }
    case "NoCommerceIntegration":
      return { status: 422, message: "No store is connected: connect it again before undoing a change." }
    case "RepositoryError":
      return { status: 503, message: "The service could not reach its database: try again." }
  }
}

/**
 * "What changed" (GET), read from core's `PriceChanges`, and the undo of one change (POST), through
 * the catalogue's `undoPriceChange` (the use case checks the role, as REST's and MCP's calls).
 */
export const priceChangesRoutes = <E>(kit: ConsoleKit<E>) =>
  Effect.gen(function* () {
    const changes = yield* PriceChanges
    const undo = yield* undoPriceChange.binding

    const list: ConsoleHandler<E | RepositoryError> = (request) =>
      Effect.gen(function* () {
        const place = yield* kit.inWorkspace(request, "changes")
        if (place._tag === "Answer") return place.response
        const query = queryOf(request)
        const cursor = cursorFrom(query)
        if (cursor === "invalid") {
          return messagePage(400, "Unknown page", "This page link is not one the console made.", place.context)
        }
        const page = yield* changes.list(place.workspaceId, { limit: pageSize, cursor })
        const undone = query.get("undone")
        const state = query.get("state")
        return kit.withCookies(
          priceChangesPage({
            context: place.context,
            workspaceId: place.workspaceId,
            role: place.role,
            changes: page.items,
            cursor: query.get("cursor"),
            nextCursor: page.nextCursor,
            notice:
              undone === null
                ? null
                : state === "applied"
                  ? "Undone: the previous price is written back to the store."
                  : state === "failed"
                    ? "The undo's write-back failed: see its result below and the alerts."
                    : "Undo queued: the previous price is on its way to the store."
          }),
          place.cookies
        )
      })

    const undoOne: ConsoleHandler<E> = (request) =>
      Effect.gen(function* () {
        const place = yield* kit.posted(request, "changes")
        if (place._tag === "Answer") return place.response
        const id = (yield* HttpRouter.params).recommendation_id ?? ""
        if (!kit.isId(id)) return kit.notFound(place.context)
        const input = decodeForm(undoInput, { recommendation_id: id })
        if (Result.isFailure(input)) return kit.notFound(place.context)
        return yield* undo(input.success, sessionCaller(place)).pipe(
          Effect.map((done) =>
            kit.redirect(
              `/app/w/${encodeURIComponent(place.workspaceId)}/changes?undone=${encodeURIComponent(id)}&state=${done.writeBack.status}`
            )
          ),
          Effect.catch((error: UndoError) => {
            const { status, message } = refusal(error)
            return Effect.succeed(messagePage(status, "Not undone", message, place.context))
          })
        )
      })

    return [
      ["GET", priceChangesPaths.changes, list],
      ["POST", priceChangesPaths.undo, undoOne]
    ] as const
  })
