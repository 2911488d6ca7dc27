import { HttpApi, type HttpApiGroup } from "effect/http-api"

/** The paths the API serves and the methods each accepts: what tells a 405 from a 404. */
export interface RouteTable {
  /** The methods a path is served with; empty when no route has that path. */
  readonly allowedMethods: (path: string) => ReadonlyArray<string>
  /**
   * The declared path a request path matches (`/api/v1/runs/:id`), the most literal one when
   * several do; undefined when none does. A bounded label for metrics, never the raw path.
   */
  readonly templateOf: (path: string) => string | undefined
  /**
   * Whether the path ends in a slash where a declared path has a parameter (`/api/v1/runs/`
   * beside `/api/v1/runs/:run_id`): an empty id, not the collection the router would serve.
   */
  readonly namesEmptyId: (path: string) => boolean
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** A declared path as a pattern without groups: its parameters match one segment each. */
const sourceOf = (path: string): string =>
  path
    .split("/")
    .map((segment) => (segment.startsWith(":") ? "[^/]+" : escapeRegExp(segment)))
    .join("/")

// Effect's router (FindMyWay's defaults) ignores case, repeated slashes and a trailing slash:
// `GET /api/v1/RUNS/` is served, so `DELETE /api/v1/RUNS/` must be a 405, not a 404.
const wholePath = (source: string): RegExp => new RegExp(`^${source}$`, "i")

const singleSlashes = (path: string): string => path.replace(/\/{2,}/g, "/")

const asRouted = (path: string): string => {
  const single = singleSlashes(path)
  return single.length > 1 && single.endsWith("/") ? single.slice(0, -1) : single
}

export const routeTable = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>,
  extra: ReadonlyArray<{ readonly method: string; readonly path: string }>
): RouteTable => {
  const declared: Array<{ readonly method: string; readonly path: string }> = [...extra]
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      declared.push({ method: endpoint.method, path: endpoint.path })
    }
  })
  const parameters = (path: string) => path.split("/").filter((segment) => segment.startsWith(":")).length
  const routes = declared
    .map((route) => {
      const source = sourceOf(route.path)
      return { method: route.method, path: route.path, source, pattern: wholePath(source) }
    })
    .sort((a, b) => parameters(a.path) - parameters(b.path))
  // Every declared path once (a path has a route per method), in the order above.
  const templates = [...new Map(routes.map((route) => [route.path, route.source])).entries()]
  // Each template's pattern as one alternative of one expression, each its own group: the engine
  // tries them as a search of the list would, first match wins, in one call per request
  // (templateOf runs on every request, for the metrics) rather than one per route tried.
  const anyTemplate = wholePath(`(?:${templates.map(([, source]) => `(${source})`).join("|")})`)
  const table: Omit<RouteTable, "namesEmptyId"> = {
    allowedMethods: (path) => {
      const routed = asRouted(path)
      const methods = new Set(routes.filter((route) => route.pattern.test(routed)).map((route) => route.method))
      // HEAD is answered wherever GET is.
      if (methods.has("GET")) methods.add("HEAD")
      return [...methods]
    },
    templateOf: (path) => {
      const match = anyTemplate.exec(asRouted(path))
      if (match === null) return undefined
      for (let group = 1; group < match.length; group++) {
        if (match[group] !== undefined) return templates[group - 1]?.[0]
      }
      return undefined
    }
  }
  return {
    ...table,
    namesEmptyId: (path) => {
      const single = singleSlashes(path)
      if (single.length <= 1 || !single.endsWith("/")) return false
      // Any one-segment id in the slash's place: does it land on a parameter?
      const template = table.templateOf(`${single}id`)
      return template?.split("/").at(-1)?.startsWith(":") === true
    }
  }
}
