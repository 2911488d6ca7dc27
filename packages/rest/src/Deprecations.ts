import { type Deprecation, DeprecationsInvalid } from "@margin/core/deprecation/Deprecation"
import { pathOf } from "@margin/edge/telemetry"
import { Context, Effect, Layer, Predicate } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApi, type HttpApiGroup, OpenApi } from "effect/http-api"
import type { RouteTable } from "./RouteTable.ts"

/**
 * How the REST front door shows the deprecations of DeprecatedOperations (@margin/edge/wire: the one
 * place they are listed): `deprecated: true` on their operations in the OpenAPI document, and
 * `Deprecation` / `Sunset` / `Link` headers on every response of their routes, errors included.
 */

const midnightUtc = (day: string): number => Date.parse(`${day}T00:00:00Z`)

/**
 * RFC 9745 `Deprecation: @<unix seconds>` (the notice day), RFC 8594 `Sunset: <IMF-fixdate>`,
 * and `Link: <url>; rel="deprecation"` when the deprecation has a link.
 */
export const headersOf = (deprecation: Deprecation): Readonly<Record<string, string>> => ({
  deprecation: `@${Math.floor(midnightUtc(deprecation.notice) / 1000)}`,
  sunset: new Date(midnightUtc(deprecation.sunset)).toUTCString(),
  ...(deprecation.link === undefined ? {} : { link: `<${deprecation.link}>; rel="deprecation"` })
})

interface Deprecated {
  readonly method: string
  readonly path: string
  /** The OpenAPI operationId (`runs.listRuns`), as OpenApi.fromApi names it. */
  readonly operationId: string
  readonly deprecation: Deprecation
}

/** The endpoints of `api` that `deprecations` names; an operation the API does not have is refused. */
export const resolve = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>,
  deprecations: ReadonlyMap<string, Deprecation>
): Effect.Effect<ReadonlyArray<Deprecated>, DeprecationsInvalid> => {
  const found: Array<Deprecated> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ group, endpoint }) => {
      const deprecation = deprecations.get(endpoint.identifier)
      if (deprecation === undefined) return
      const operationId = group.topLevel ? endpoint.identifier : `${group.identifier}.${endpoint.identifier}`
      found.push({ method: endpoint.method, path: endpoint.path, operationId, deprecation })
    }
  })
  const unknown = [...deprecations.keys()].filter(
    (operation) => !found.some((d) => d.deprecation.operation === operation)
  )
  if (unknown.length === 0) return Effect.succeed(found)
  const problems = unknown.map((operation) => `${operation} is not an operation of the API`)
  return Effect.fail(
    new DeprecationsInvalid({ message: `invalid deprecated operations: ${problems.join("; ")}`, problems })
  )
}

/** Marks the deprecated operations of a generated OpenAPI document `deprecated: true`. */
const markDeprecated =
  (operationIds: ReadonlySet<string>) =>
  (spec: Record<string, unknown>): Record<string, unknown> => {
    const paths = Predicate.isReadonlyObject(spec.paths) ? spec.paths : {}
    const marked = Object.fromEntries(
      Object.entries(paths).map(([path, item]) => [
        path,
        Predicate.isReadonlyObject(item)
          ? Object.fromEntries(
              Object.entries(item).map(([method, operation]) => [
                method,
                Predicate.isReadonlyObject(operation) && operationIds.has(String(operation.operationId))
                  ? { ...operation, deprecated: true }
                  : operation
              ])
            )
          : item
      ])
    )
    return { ...spec, paths: marked }
  }

/** `api` with its OpenAPI document marking `deprecated` true (the same api when nothing is deprecated). */
export const documented = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>,
  deprecated: ReadonlyArray<Deprecated>
): HttpApi.HttpApi<Id, Groups> => {
  if (deprecated.length === 0) return api
  const mark = markDeprecated(new Set(deprecated.map((d) => d.operationId)))
  // After the API's own transform (the bearer scheme), which this annotation would otherwise replace.
  const before = Context.getOrUndefined(api.annotations, OpenApi.Transform)
  return api.annotate(OpenApi.Transform, before === undefined ? mark : (spec) => mark(before(spec)))
}

/**
 * Adds the deprecation headers to every response of a deprecated route, whatever its status. Global
 * and outermost (build it before the response guard): the guard's rewritten errors get them too.
 * With nothing deprecated it installs nothing; otherwise a request whose method has a deprecated
 * route costs one route-template lookup, and others nothing more than a map read.
 */
export const headersLayer = (
  deprecated: ReadonlyArray<Deprecated>,
  routes: RouteTable
): Layer.Layer<never, never, HttpRouter.HttpRouter> => {
  if (deprecated.length === 0) return Layer.empty
  const byMethod = new Map<string, Map<string, Readonly<Record<string, string>>>>()
  for (const { method, path, deprecation } of deprecated) {
    const templates = byMethod.get(method) ?? new Map<string, Readonly<Record<string, string>>>()
    templates.set(path, headersOf(deprecation))
    byMethod.set(method, templates)
  }
  return HttpRouter.middleware(
    (httpEffect) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        // HEAD is answered by the GET route.
        const templates = byMethod.get(request.method === "HEAD" ? "GET" : request.method)
        if (templates === undefined) return httpEffect
        const template = routes.templateOf(pathOf(request.url))
        const headers = template === undefined ? undefined : templates.get(template)
        return headers === undefined
          ? httpEffect
          : Effect.map(httpEffect, (response) => HttpServerResponse.setHeaders(response, headers))
      }),
    { global: true }
  )
}
