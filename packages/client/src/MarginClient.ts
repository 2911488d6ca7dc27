import { AlertId, CatalogImportId, RecommendationId, RunId, StoreSyncId } from "@margin/core/kernel/Ids"
import { CursorParam } from "@margin/edge/wire"
import { Api } from "@margin/rest/api"
import { Context, Effect, Layer, Redacted, Schema, Stream } from "effect"
import { FetchHttpClient, HttpBody, HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { fromResponse } from "./ApiError.ts"
import { type ClientConfig, defaultMaxRetries, defaultTimeoutMillis } from "./ClientConfig.ts"
import { UnexpectedResponse } from "./ClientError.ts"
import { type MarginError, toMarginError } from "./MarginError.ts"
import { cursorField, paginate } from "./Paginate.ts"
import { attempting, isRepeatable, type RetryPolicy } from "./Retry.ts"

/**
 * The Effect face of the client: every operation of `@margin/rest/api`, called through Effect's
 * `HttpApiClient` derived from that very definition, so paths, query and body encoding and the
 * success shapes are the server's. Errors are `MarginError`: the contract's by `code`.
 */

type Raw = HttpApiClient.ForApi<typeof Api>
type RequestOf<F> = F extends (request: infer Q) => unknown ? Q : never
type QueryOf<F> = RequestOf<F> extends { readonly query: infer Q } ? Q : never
type PayloadOf<F> = RequestOf<F> extends { readonly payload: infer P } ? P : never

/** A list's query, with `cursor` as the list answered it (`next_cursor`) and ids as plain strings. */
type ListQuery<F> = Omit<QueryOf<F>, "cursor" | "run_id"> & { readonly cursor?: string }

export type RunListQuery = ListQuery<Raw["runs"]["listRuns"]>
export type RecommendationListQuery = ListQuery<Raw["recommendations"]["listRecommendations"]> & {
  readonly run_id?: string
}
export type AlertListQuery = ListQuery<Raw["alerts"]["listAlerts"]>
export type CatalogItemListQuery = ListQuery<Raw["catalog"]["listCatalogItems"]>
export type TriggerRunBody = NonNullable<PayloadOf<Raw["runs"]["triggerRun"]>>
export type RejectBody = PayloadOf<Raw["recommendations"]["rejectRecommendation"]>
export type SnoozeBody = PayloadOf<Raw["alerts"]["snoozeAlert"]>

/** A catalog file to import: its format, and whether to decide every line without writing. */
export interface CatalogImportOptions {
  readonly format: "csv" | "jsonl"
  readonly dryRun?: boolean
}

const decodeCursor = Schema.decodeEffect(CursorParam)

/** `{ cursor }` for the request, from the `next_cursor` a list answered (refused here if it is not one). */
const cursorOf = (cursor: string | undefined) =>
  cursor === undefined ? Effect.succeed({}) : Effect.map(decodeCursor(cursor), (decoded) => ({ cursor: decoded }))

/** A success body the definition refuses is an answer outside the contract, not a bad request. */
const successBodyRefused = <A, E, R>(decoded: Effect.Effect<A, E, R>) =>
  Effect.mapError(decoded, (error) =>
    Schema.isSchemaError(error)
      ? new UnexpectedResponse({ status: null, message: `the answer does not match the API: ${error.message}` })
      : error
  )

/** The service's answers of 300 or more fail with the contract's error before the definition decodes them. */
const authenticated = (config: ClientConfig) => {
  const token = typeof config.token === "string" ? Redacted.make(config.token) : config.token
  const workspaceId = config.workspaceId
  return (client: HttpClient.HttpClient) =>
    client.pipe(
      HttpClient.mapRequest((request) => {
        const authorized = HttpClientRequest.bearerToken(HttpClientRequest.prependUrl(request, config.baseUrl), token)
        return workspaceId === undefined
          ? authorized
          : HttpClientRequest.setHeader(authorized, "x-workspace-id", workspaceId)
      }),
      HttpClient.transformResponse(
        Effect.flatMap((response) => (response.status >= 300 ? fromResponse(response) : Effect.succeed(response)))
      )
    )
}

/**
 * A call of the operation `id` with the contract's errors, a timeout per attempt and, for a
 * repeatable operation, the retries of the policy (Retry.ts).
 */
const sending =
  (policy: RetryPolicy) =>
  (id: string, repeatable = isRepeatable(id)) =>
  <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A, MarginError> =>
    Effect.catch(effect, toMarginError).pipe(attempting(policy, repeatable))

/** A run trigger's own options. */
export interface TriggerRunOptions {
  /**
   * Sent as `Idempotency-Key`: a repeat with the same key and body within 24 hours answers the run
   * the first queued. Default: a fresh UUID per call, the same on each of its retries, which is
   * what makes a trigger safe for the client to retry.
   */
  readonly idempotencyKey?: string
}

/** Every operation of the API, one method each. */
const methodsOf = (config: ClientConfig) =>
  Effect.gen(function* () {
    const send = sending({
      maxRetries: config.maxRetries ?? defaultMaxRetries,
      timeoutMillis: config.timeout ?? defaultTimeoutMillis
    })
    const httpClient = authenticated(config)(yield* HttpClient.HttpClient)
    const api = yield* HttpApiClient.makeWith(Api, { httpClient, transformResponse: successBodyRefused })
    // The report's format is chosen by Accept, which the definition does not declare: a second
    // client of the reports group asks for JSON.
    const reportsAsJson = yield* HttpApiClient.group(Api, {
      group: "reports",
      httpClient: HttpClient.mapRequest(httpClient, HttpClientRequest.acceptJson),
      transformResponse: successBodyRefused
    })
    // The import's body goes out as text/csv, the definition's first media type; JSON lines say so.
    const importsAsJsonLines = yield* HttpApiClient.group(Api, {
      group: "catalog",
      httpClient: HttpClient.mapRequest(httpClient, (request) =>
        request.body._tag === "Stream"
          ? HttpClientRequest.setBody(request, HttpBody.stream(request.body.stream, "application/x-ndjson"))
          : request
      ),
      transformResponse: successBodyRefused
    })
    const recommendation = (id: string) => ({ params: { recommendation_id: RecommendationId.make(id) } })
    const alert = (id: string) => ({ params: { alert_id: AlertId.make(id) } })
    return {
      listRuns: ({ cursor, ...query }: RunListQuery = {}) =>
        send("listRuns")(
          Effect.flatMap(cursorOf(cursor), (page) => api.runs.listRuns({ query: { ...query, ...page } }))
        ),
      triggerRun: (body: TriggerRunBody = {}, options: TriggerRunOptions = {}) =>
        Effect.flatMap(
          Effect.sync(() => options.idempotencyKey ?? globalThis.crypto.randomUUID()),
          // Repeatable: every attempt carries the one key.
          (key) => send("triggerRun", true)(api.runs.triggerRun({ headers: { "idempotency-key": key }, payload: body }))
        ),
      getRun: (id: string) => send("getRun")(api.runs.getRun({ params: { run_id: RunId.make(id) } })),

      listRecommendations: ({ cursor, run_id, ...query }: RecommendationListQuery = {}) =>
        send("listRecommendations")(
          Effect.flatMap(cursorOf(cursor), (page) =>
            api.recommendations.listRecommendations({
              query: { ...query, ...page, ...(run_id === undefined ? {} : { run_id: RunId.make(run_id) }) }
            })
          )
        ),
      getRecommendation: (id: string) =>
        send("getRecommendation")(api.recommendations.getRecommendation(recommendation(id))),
      acceptRecommendation: (id: string) =>
        send("acceptRecommendation")(api.recommendations.acceptRecommendation(recommendation(id))),
      dismissRecommendation: (id: string) =>
        send("dismissRecommendation")(api.recommendations.dismissRecommendation(recommendation(id))),
      approveRecommendation: (id: string) =>
        send("approveRecommendation")(api.recommendations.approveRecommendation(recommendation(id))),
      undoPriceChange: (id: string) => send("undoPriceChange")(api.recommendations.undoPriceChange(recommendation(id))),
      rejectRecommendation: (id: string, body: RejectBody) =>
        send("rejectRecommendation")(
          api.recommendations.rejectRecommendation({ ...recommendation(id), payload: body })
        ),

      listAlerts: ({ cursor, ...query }: AlertListQuery = {}) =>
        send("listAlerts")(
          Effect.flatMap(cursorOf(cursor), (page) => api.alerts.listAlerts({ query: { ...query, ...page } }))
        ),
      getAlert: (id: string) => send("getAlert")(api.alerts.getAlert(alert(id))),
      snoozeAlert: (id: string, body: SnoozeBody) =>
        send("snoozeAlert")(api.alerts.snoozeAlert({ ...alert(id), payload: body })),
      resolveAlert: (id: string) => send("resolveAlert")(api.alerts.resolveAlert(alert(id))),
      dismissAlert: (id: string) => send("dismissAlert")(api.alerts.dismissAlert(alert(id))),

      listCatalogItems: ({ cursor, ...query }: CatalogItemListQuery = {}) =>
        send("listCatalogItems")(
          Effect.flatMap(cursorOf(cursor), (page) => api.catalog.listCatalogItems({ query: { ...query, ...page } }))
        ),
      /** Imports a catalog file (its text, or its bytes as a stream), in one transaction on the server. */
      importCatalog: (file: string | Stream.Stream<Uint8Array>, options: CatalogImportOptions) => {
        const payload = typeof file === "string" ? Stream.make(new TextEncoder().encode(file)) : file
        const query = options.dryRun === true ? { dry_run: true } : {}
        return send("importCatalog")(
          options.format === "csv"
            ? api.catalog.importCatalog({ payload, query })
            : importsAsJsonLines.importCatalog({ payload, query })
        )
      },
      getCatalogImport: (id: string) =>
        send("getCatalogImport")(api.catalog.getCatalogImport({ params: { import_id: CatalogImportId.make(id) } })),
      /** Starts a sync of the catalog from the connected store (or answers the one queued or running). */
      startStoreSync: () => send("startStoreSync")(api.catalog.startStoreSync({})),
      getStoreSync: (id: string) =>
        send("getStoreSync")(api.catalog.getStoreSync({ params: { sync_id: StoreSyncId.make(id) } })),
      /** The CSV text by default; `{ format: "json" }` for the rows as JSON. */
      exportReport: (options: { readonly format?: "csv" | "json" } = {}) =>
        send("exportReport")(options.format === "json" ? reportsAsJson.exportReport({}) : api.reports.exportReport({})),
      getWorkspaceStatus: () => send("getWorkspaceStatus")(api.workspace.getWorkspaceStatus({})),

      healthz: () => send("healthz")(api.healthz({})),
      readyz: () => send("readyz")(api.readyz({}))
    }
  })

type Methods = Effect.Success<ReturnType<typeof methodsOf>>

/** The list operations: those `paginate` follows. */
export type ListName = "listRuns" | "listRecommendations" | "listAlerts" | "listCatalogItems"

/** A list's query without the cursor, which `paginate` moves along itself. */
export type PageQuery<K extends ListName> = Omit<NonNullable<Parameters<Methods[K]>[0]>, "cursor">

/** The items a list answers. */
export type ItemOf<K extends ListName> = Effect.Success<ReturnType<Methods[K]>>["data"][number]

type Paginators = {
  readonly [K in ListName]: (query: PageQuery<K> | undefined) => Stream.Stream<ItemOf<K>, MarginError>
}

export const make = (config: ClientConfig) =>
  Effect.map(methodsOf(config), (methods) => {
    const lists: Paginators = {
      listRuns: (query) => paginate((cursor) => methods.listRuns({ ...query, ...cursorField(cursor) })),
      listRecommendations: (query) =>
        paginate((cursor) => methods.listRecommendations({ ...query, ...cursorField(cursor) })),
      listAlerts: (query) => paginate((cursor) => methods.listAlerts({ ...query, ...cursorField(cursor) })),
      listCatalogItems: (query) => paginate((cursor) => methods.listCatalogItems({ ...query, ...cursorField(cursor) }))
    }
    return {
      ...methods,
      /**
       * Every item of a list as a Stream, page after page (`next_cursor` followed until null):
       * `paginate("listRecommendations", { status: "new" })`.
       */
      paginate: <K extends ListName>(list: K, query?: PageQuery<K>): Stream.Stream<ItemOf<K>, MarginError> =>
        lists[list](query)
    }
  })

export type MarginClientShape = Effect.Success<ReturnType<typeof make>>

export class MarginClient extends Context.Service<MarginClient, MarginClientShape>()("margin/client/MarginClient") {
  /** The client on the `HttpClient` the caller provides (Node's, the browser's, one with retries). */
  static readonly layer = (config: ClientConfig) => Layer.effect(MarginClient, make(config))
  /** The client on `fetch`: the platform's, or the config's own. */
  static readonly layerFetch = (config: ClientConfig) =>
    MarginClient.layer(config).pipe(
      Layer.provide(FetchHttpClient.layer),
      Layer.provide(config.fetch === undefined ? Layer.empty : Layer.succeed(FetchHttpClient.Fetch, config.fetch))
    )
}
