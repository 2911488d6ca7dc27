import { ApiKeys, type NewApiKey } from "@margin/core/access/ApiKeys"
import { scopes as allScopes, type Scope } from "@margin/core/access/Scope"
import type { InvalidInput } from "@margin/core/kernel/Errors"
import { RecommendationId, TokenId } from "@margin/core/kernel/Ids"
import { maxPageLimit } from "@margin/core/kernel/Page"
import { listRecommendations } from "@margin/core/operations/OperationCatalogue"
import { inputSchemaOf } from "@margin/core/operations/OperationInput"
import { RecommendationReviews } from "@margin/core/recommendations/RecommendationReviews"
import { Recommendations } from "@margin/core/recommendations/Recommendations"
import { budgetKey } from "@margin/edge/auth"
import { RejectBody } from "@margin/edge/wire"
import { Clock, Effect, Option, Result, Schema } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { alertsRoutes, alertsRoutesTable } from "./AlertsRoutes.ts"
import { apiKeysPage, emptyKeyForm, type KeyFormState } from "./ApiKeysPage.ts"
import { type BulkItem, bulkOutcomePage } from "./BulkOutcomePage.ts"
import { catalogRoutes, catalogRoutesTable, filledIn } from "./CatalogRoutes.ts"
import { decodeForm, sessionCaller } from "./CatalogueCall.ts"
import { compressed } from "./Compression.ts"
import { assetsPrefix, assetsRoute } from "./ConsoleAssets.ts"
import {
  actorOf,
  consoleGate,
  formExpired,
  formOf,
  type InWorkspace,
  idPattern,
  managerOnly,
  notFound,
  redirect,
  withCookies
} from "./ConsoleGate.ts"
import { messagePage, type PageContext, pageHeaders } from "./ConsolePage.ts"
import { priceChangesRoutes, priceChangesRoutesTable } from "./PriceChangesRoutes.ts"
import { queueOf, queuePage } from "./QueuePage.ts"
import { type ActionOutcome, actionRunner, isAction, pastTense } from "./RecommendationActions.ts"
import { recommendationPage } from "./RecommendationPage.ts"
import { runsRoutes, runsRoutesTable } from "./RunsRoutes.ts"
import { settingsHandlers, settingsRoutes } from "./SettingsRoutes.ts"
import { storeRoutes } from "./StoreSettingsRoutes.ts"
import { workspacesPage } from "./WorkspacesPage.ts"

export const consolePaths = {
  home: "/app",
  signOut: "/app/sign-out",
  queue: "/app/w/:workspace_id/recommendations",
  bulk: "/app/w/:workspace_id/recommendations/bulk",
  recommendation: "/app/w/:workspace_id/recommendations/:recommendation_id",
  action: "/app/w/:workspace_id/recommendations/:recommendation_id/:action",
  apiKeys: "/app/w/:workspace_id/settings/api-keys",
  revokeKey: "/app/w/:workspace_id/settings/api-keys/:token_id/revoke",
  store: "/app/w/:workspace_id/settings/store",
  storeSync: "/app/w/:workspace_id/settings/store/sync",
  storeSchedule: "/app/w/:workspace_id/settings/store/schedule",
  storeDisconnect: "/app/w/:workspace_id/settings/store/disconnect",
  storeConnect: "/app/w/:workspace_id/settings/store/connect",
  assets: `${assetsPrefix}/:name`
} as const

/** The routes `layer` serves, for the route table of the router that mounts it. */
export const routes: ReadonlyArray<{ readonly method: string; readonly path: string }> = [
  { method: "GET", path: consolePaths.home },
  { method: "POST", path: consolePaths.signOut },
  { method: "GET", path: consolePaths.queue },
  { method: "POST", path: consolePaths.bulk },
  { method: "GET", path: consolePaths.recommendation },
  { method: "POST", path: consolePaths.action },
  { method: "GET", path: consolePaths.apiKeys },
  { method: "POST", path: consolePaths.apiKeys },
  { method: "POST", path: consolePaths.revokeKey },
  ...catalogRoutesTable,
  ...priceChangesRoutesTable,
  ...runsRoutesTable,
  ...alertsRoutesTable,
  { method: "GET", path: consolePaths.assets },
  ...settingsRoutes,
  { method: "GET", path: consolePaths.store },
  { method: "POST", path: consolePaths.storeSync },
  { method: "POST", path: consolePaths.storeSchedule },
  { method: "POST", path: consolePaths.storeDisconnect },
  { method: "POST", path: consolePaths.storeConnect }
]

/** At most this many recommendations in one bulk action (one form's worth). */
export const maxBulkItems = 200

const reasonNeeded = (context: PageContext) =>
  messagePage(400, "A reason is needed", "Rejecting needs a reason of at most 1000 characters.", context)

const readNumber = (text: string | null): number | null | "invalid" => {
  const trimmed = (text ?? "").trim()
  if (trimmed === "") return null
  return /^[0-9]{1,6}$/.test(trimmed) ? Number(trimmed) : "invalid"
}

const isScope = (name: string): name is Scope => allScopes.some((scope) => scope === name)

const queueInput = inputSchemaOf(listRecommendations, "query")

/**
 * The console's routes under /app: server-rendered pages over the use cases, signed in with the
 * browser session of the sign-in pages (`BrowserSessions`). Every request of a signed-in person
 * counts one unit of their rate budget (`user:<id>`, shared with their session's REST and MCP
 * calls), and each further item of a bulk action one more. Every POST carries the session's CSRF
 * token or is refused (403). A workspace the person is not a member of, and any id not of that
 * workspace, is 404.
 */
export const layer = HttpRouter.addAll(
  Effect.gen(function* () {
    const { sessions, access, budget, signedIn, inWorkspace, posted } = yield* consoleGate
    const recommendations = yield* Recommendations
    const reviews = yield* RecommendationReviews
    const listQueue = yield* listRecommendations.binding
    const apiKeys = yield* ApiKeys
    const runAction = yield* actionRunner

    const home = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const person = yield* signedIn(request)
        if (person._tag === "Answer") return person.response
        const mine = yield* access.workspacesOf(person.userId)
        const only = mine.length === 1 ? mine[0] : undefined
        if (only !== undefined) {
          return redirect(`/app/w/${encodeURIComponent(only.workspace.id)}/recommendations`, person.cookies)
        }
        const context: PageContext = {
          workspace: null,
          role: null,
          email: null,
          csrf: person.csrf,
          current: "workspaces"
        }
        return withCookies(workspacesPage(context, mine), person.cookies)
      })

    const signOut = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const form = yield* formOf(request)
        if (!(yield* sessions.csrfMatches(request, form.get("csrf") ?? undefined))) return formExpired(null)
        return redirect(sessions.signInPath(consolePaths.home), sessions.signOutCookies(request))
      })

    const queue = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const place = yield* inWorkspace(request, "recommendations")
        if (place._tag === "Answer") return place.response
        const query = new URL(request.url, "http://localhost").searchParams
        const filters = {
          status: (query.get("status") ?? "").slice(0, 100),
          run: (query.get("run_id") ?? "").slice(0, 100),
          tag: (query.get("tag") ?? "").slice(0, 100),
          rule: (query.get("rule") ?? "").slice(0, 100),
          sku: (query.get("sku") ?? "").slice(0, 200)
        }
        // The filters go through listRecommendations' own query rules (as REST's and MCP's do).
        const { sku: _search, run, ...asked } = filters
        const decoded = decodeForm(queueInput, filledIn({ ...asked, run_id: run, limit: String(maxPageLimit) }))
        const page = Result.isSuccess(decoded) ? yield* listQueue(decoded.success, sessionCaller(place)) : null
        return withCookies(
          queuePage({
            context: place.context,
            workspaceId: place.workspaceId,
            role: place.role,
            filters,
            items: page === null ? [] : queueOf(page.items, filters.sku),
            truncated: page !== null && page.nextCursor !== null,
            error: Result.isFailure(decoded) ? decoded.failure : null
          }),
          place.cookies
        )
      })

    const detail = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const place = yield* inWorkspace(request, "recommendations")
        if (place._tag === "Answer") return place.response
        const id = (yield* HttpRouter.params).recommendation_id ?? ""
        if (!idPattern.test(id)) return notFound(place.context)
        const found = yield* Effect.option(reviews.get(place.workspaceId, RecommendationId.make(id)))
        if (Option.isNone(found)) return notFound(place.context)
        const done = new URL(request.url, "http://localhost").searchParams.get("done") ?? ""
        return withCookies(
          recommendationPage({
            context: place.context,
            workspaceId: place.workspaceId,
            role: place.role,
            review: found.value,
            notice: isAction(done)
              ? `Recommendation ${pastTense[done]}.`
              : done === "repeat"
                ? "Nothing changed: it was already so."
                : null
          }),
          place.cookies
        )
      })

    /** The reject reason as the REST body rule has it (at most 1000 characters, no NUL). */
    const reasonOf = (form: URLSearchParams): string | undefined => {
      const decoded = Schema.decodeUnknownOption(RejectBody)({ reason: (form.get("reason") ?? "").trim() })
      return Option.isSome(decoded) ? decoded.value.reason : undefined
    }

    const act = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const place = yield* posted(request, "recommendations")
        if (place._tag === "Answer") return place.response
        const params = yield* HttpRouter.params
        const id = params.recommendation_id ?? ""
        const action = params.action ?? ""
        if (!idPattern.test(id) || !isAction(action)) return notFound(place.context)
        const reason = reasonOf(place.form)
        if (action === "reject" && (reason === undefined || reason === "")) return reasonNeeded(place.context)
        const outcome = yield* runAction(
          place.workspaceId,
          RecommendationId.make(id),
          action,
          { actor: actorOf(place), role: place.role },
          reason ?? ""
        )
        const here = `/app/w/${encodeURIComponent(place.workspaceId)}/recommendations/${encodeURIComponent(id)}`
        switch (outcome._tag) {
          case "Done":
            return redirect(`${here}?done=${action}`)
          case "Repeat":
            return redirect(`${here}?done=repeat`)
          case "Refused":
            return messagePage(outcome.status, `Not ${pastTense[action]}`, outcome.message, place.context)
        }
      })

    const bulk = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const place = yield* posted(request, "recommendations")
        if (place._tag === "Answer") return place.response
        const action = place.form.get("action") ?? ""
        const ids = [...new Set(place.form.getAll("id"))]
        if (!isAction(action))
          return messagePage(400, "Choose an action", "Choose accept, approve, reject or dismiss.", place.context)
        if (ids.length === 0 || ids.length > maxBulkItems) {
          return messagePage(
            400,
            "Choose recommendations",
            `Select between 1 and ${maxBulkItems} recommendations.`,
            place.context
          )
        }
        const reason = reasonOf(place.form)
        if (action === "reject" && (reason === undefined || reason === "")) return reasonNeeded(place.context)
        const acting = { actor: actorOf(place), role: place.role }
        const key = budgetKey({ tokenId: null, userId: place.userId })
        // One by one, in the order selected: each item its own transaction and outcome. The request
        // paid for the first; each further one costs a unit, and once the budget is spent the rest
        // are refused (429) without being tried.
        const items: Array<BulkItem> = []
        let spent: number | undefined
        for (const [index, id] of ids.entries()) {
          if (spent === undefined && index > 0) {
            const decision = yield* budget.consume(key, yield* Clock.currentTimeMillis)
            if (decision._tag === "Limited") spent = decision.retryAfterSeconds
          }
          const outcome: ActionOutcome =
            spent !== undefined
              ? { _tag: "Refused", status: 429, message: `Not tried: your rate budget is spent (retry in ${spent} s).` }
              : idPattern.test(id)
                ? yield* runAction(place.workspaceId, RecommendationId.make(id), action, acting, reason ?? "")
                : { _tag: "Refused", status: 404, message: "No such recommendation in this workspace." }
          // A refusal carries no recommendation: its SKU is read back, when it is one of the workspace's.
          const sku =
            outcome._tag === "Refused"
              ? outcome.status === 404 || outcome.status === 429
                ? null
                : Option.match(
                    yield* Effect.option(recommendations.get(place.workspaceId, RecommendationId.make(id))),
                    { onNone: () => null, onSome: (found) => found.sku }
                  )
              : (outcome.recommendation?.sku ?? null)
          items.push({ id, sku, outcome })
        }
        return bulkOutcomePage({ context: place.context, workspaceId: place.workspaceId, action, items })
      })

    const keysPage = (
      place: InWorkspace,
      options: {
        readonly form?: KeyFormState
        readonly created?: { readonly name: string; readonly secret: string }
        readonly notice?: string
        readonly status?: number
      } = {}
    ) =>
      Effect.gen(function* () {
        const page = yield* apiKeys.list(place.workspaceId, { userId: place.userId, role: place.role })
        return apiKeysPage({
          context: place.context,
          workspaceId: place.workspaceId,
          role: place.role,
          tokens: page.items,
          now: yield* Clock.currentTimeMillis,
          form: options.form ?? emptyKeyForm,
          created: options.created ?? null,
          notice: options.notice ?? null,
          ...(options.status === undefined ? {} : { status: options.status })
        })
      })

    const showKeys = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const place = yield* inWorkspace(request, "api-keys")
        if (place._tag === "Answer") return place.response
        const refused = managerOnly(place)
        if (refused !== undefined) return refused
        return withCookies(yield* keysPage(place), place.cookies)
      })

    const createKey = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const place = yield* posted(request, "api-keys")
        if (place._tag === "Answer") return place.response
        const refused = managerOnly(place)
        if (refused !== undefined) return refused
        const chosen = place.form.getAll("scope")
        const expiry = readNumber(place.form.get("expires_in_days"))
        const state: KeyFormState = {
          name: (place.form.get("name") ?? "").slice(0, 200),
          scopes: chosen,
          expiresInDays: place.form.get("expires_in_days") ?? "",
          error: null
        }
        const unknown = chosen.filter((name) => !isScope(name))
        if (expiry === "invalid" || unknown.length > 0) {
          const error =
            expiry === "invalid"
              ? "Expires after: a whole number of days, or empty for never."
              : `Unknown scope ${unknown.join(", ")}.`
          return yield* keysPage(place, { form: { ...state, error }, status: 400 })
        }
        const input: NewApiKey = { name: state.name, scopes: chosen.filter(isScope), expiresInDays: expiry }
        return yield* apiKeys.create(place.workspaceId, { userId: place.userId, role: place.role }, input).pipe(
          Effect.flatMap((created) =>
            keysPage(place, { created: { name: created.token.name, secret: created.secret } })
          ),
          Effect.catchTag("InvalidInput", (error: InvalidInput) =>
            keysPage(place, { form: { ...state, error: `${error.message}.` }, status: 400 })
          )
        )
      })

    const revokeKey = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const place = yield* posted(request, "api-keys")
        if (place._tag === "Answer") return place.response
        const refused = managerOnly(place)
        if (refused !== undefined) return refused
        const id = (yield* HttpRouter.params).token_id ?? ""
        if (!idPattern.test(id)) return notFound(place.context)
        const revoked = yield* Effect.option(
          apiKeys.revoke(place.workspaceId, { userId: place.userId, role: place.role }, TokenId.make(id))
        )
        if (Option.isNone(revoked)) return notFound(place.context)
        return yield* keysPage(place, { notice: `Key “${revoked.value.name}” revoked: it no longer authenticates.` })
      })

    /** A database failure is a page that says so (503), never an empty answer. */
    const orUnavailable = <E extends { readonly _tag: string }>(
      effect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, HttpRouter.Provided>
    ) =>
      Effect.catch(effect, (error: E) =>
        Effect.as(
          Effect.logWarning("console: a use case failed", error._tag),
          HttpServerResponse.setHeaders(
            messagePage(503, "Service unavailable", "The service could not answer just now: try again.", null),
            { ...pageHeaders, "retry-after": "5" }
          )
        )
      )

    // Pages with routes of their own files, built on the same sign-in, workspace, CSRF and budget checks.
    const kit = { inWorkspace, posted, isId: (text: string) => idPattern.test(text), redirect, notFound, withCookies }
    const catalogHandlers = yield* catalogRoutes(kit)
    const changeHandlers = yield* priceChangesRoutes(kit)
    const runHandlers = yield* runsRoutes(kit)
    const alertHandlers = yield* alertsRoutes(kit)

    const handlers = [
      ["GET", consolePaths.home, home],
      ["POST", consolePaths.signOut, signOut],
      ["GET", consolePaths.queue, queue],
      ["POST", consolePaths.bulk, bulk],
      ["GET", consolePaths.recommendation, detail],
      ["POST", consolePaths.action, act],
      ["GET", consolePaths.apiKeys, showKeys],
      ["POST", consolePaths.apiKeys, createKey],
      ["POST", consolePaths.revokeKey, revokeKey],
      ...catalogHandlers,
      ...changeHandlers,
      ...runHandlers,
      ...alertHandlers,
      ...(yield* settingsHandlers),
      ...(yield* storeRoutes(inWorkspace, posted, (place) => ({ _tag: "SessionActor", userId: place.userId })))
    ] as const
    return [
      assetsRoute,
      ...handlers.map(([method, path, handler]) =>
        HttpRouter.route(method, path, (request: HttpServerRequest.HttpServerRequest) =>
          Effect.map(orUnavailable(handler(request)), (response) => compressed(request, response))
        )
      )
    ]
  })
)
