import { AlertId, CatalogImportId, RecommendationId, RunId } from "@margin/core/Ids"
import { CursorParam } from "@margin/edge/wire"
import { Api } from "@margin/rest/api"
import { Context, Effect, Layer, Redacted, Schema, Stream } from "effect"
import { FetchHttpClient, HttpBody, HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { fromResponse } from "./ApiError.ts"
import type { ClientConfig } from "./ClientConfig.ts"
import { UnexpectedResponse } from "./ClientError.ts"
import { type MarginError, toMarginError } from "./MarginError.ts"

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

const send = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A, MarginError> => Effect.catch(effect, toMarginError)

export const make = (config: ClientConfig) =>
  Effect.gen(function* () {
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
        send(Effect.flatMap(cursorOf(cursor), (page) => api.runs.listRuns({ query: { ...query, ...page } }))),
      triggerRun: (body: TriggerRunBody = {}) => send(api.runs.triggerRun({ payload: body })),
      getRun: (id: string) => send(api.runs.getRun({ params: { run_id: RunId.make(id) } })),

      listRecommendations: ({ cursor, run_id, ...query }: RecommendationListQuery = {}) =>
        send(
          Effect.flatMap(cursorOf(cursor), (page) =>
            api.recommendations.listRecommendations({
              query: { ...query, ...page, ...(run_id === undefined ? {} : { run_id: RunId.make(run_id) }) }
            })
          )
        ),
      getRecommendation: (id: string) => send(api.recommendations.getRecommendation(recommendation(id))),
      acceptRecommendation: (id: string) => send(api.recommendations.acceptRecommendation(recommendation(id))),
      dismissRecommendation: (id: string) => send(api.recommendations.dismissRecommendation(recommendation(id))),
      approveRecommendation: (id: string) => send(api.recommendations.approveRecommendation(recommendation(id))),
      rejectRecommendation: (id: string, body: RejectBody) =>
        send(api.recommendations.rejectRecommendation({ ...recommendation(id), payload: body })),

      listAlerts: ({ cursor, ...query }: AlertListQuery = {}) =>
        send(Effect.flatMap(cursorOf(cursor), (page) => api.alerts.listAlerts({ query: { ...query, ...page } }))),
      getAlert: (id: string) => send(api.alerts.getAlert(alert(id))),
      snoozeAlert: (id: string, body: SnoozeBody) => send(api.alerts.snoozeAlert({ ...alert(id), payload: body })),
      resolveAlert: (id: string) => send(api.alerts.resolveAlert(alert(id))),
      dismissAlert: (id: string) => send(api.alerts.dismissAlert(alert(id))),

      listCatalogItems: ({ cursor, ...query }: CatalogItemListQuery = {}) =>
        send(
          Effect.flatMap(cursorOf(cursor), (page) => api.catalog.listCatalogItems({ query: { ...query, ...page } }))
        ),
      /** Imports a catalog file (its text, or its bytes as a stream), in one transaction on the server. */
      importCatalog: (file: string | Stream.Stream<Uint8Array>, options: CatalogImportOptions) => {
        const payload = typeof file === "string" ? Stream.make(new TextEncoder().encode(file)) : file
        const query = options.dryRun === true ? { dry_run: "true" as const } : {}
        return send(
          options.format === "csv"
            ? api.catalog.importCatalog({ payload, query })
            : importsAsJsonLines.importCatalog({ payload, query })
        )
      },
      getCatalogImport: (id: string) =>
        send(api.catalog.getCatalogImport({ params: { import_id: CatalogImportId.make(id) } })),
      /** The CSV text by default; `{ format: "json" }` for the rows as JSON. */
      exportReport: (options: { readonly format?: "csv" | "json" } = {}) =>
        send(options.format === "json" ? reportsAsJson.exportReport({}) : api.reports.exportReport({})),
      getWorkspaceStatus: () => send(api.workspace.getWorkspaceStatus({})),

      healthz: () => send(api.healthz({})),
      readyz: () => send(api.readyz({}))
    }
  })

export type MarginClientShape = Effect.Success<ReturnType<typeof make>>

export class MarginClient extends Context.Service<MarginClient, MarginClientShape>()("margin/client/MarginClient") {
  /** The client on the `HttpClient` the caller provides (Node's, the browser's, one with retries). */
  static readonly layer = (config: ClientConfig) => Layer.effect(MarginClient, make(config))
  /** The client on the platform's `fetch`. */
  static readonly layerFetch = (config: ClientConfig) =>
    MarginClient.layer(config).pipe(Layer.provide(FetchHttpClient.layer))
}
