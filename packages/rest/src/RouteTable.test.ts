import { assert, describe, it } from "@effect/vitest"
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import * as fc from "fast-check"
import { Api } from "./Api.ts"
import { routeTable } from "./RouteTable.ts"

const Overlapping = HttpApi.make("overlapping").add(
  HttpApiGroup.make("runs")
    .add(HttpApiEndpoint.get("get", "/runs/:run_id"))
    .add(HttpApiEndpoint.get("latest", "/runs/latest"))
    .add(HttpApiEndpoint.post("cancel", "/runs/:run_id/cancel"))
    .add(HttpApiEndpoint.get("step", "/runs/:run_id/steps/:step_id"))
)

describe("routeTable.namesEmptyId", () => {
  const routes = routeTable(Overlapping, [{ method: "GET", path: "/healthz" }])

  it("is true where a trailing slash stands in a parameter's place, false elsewhere", () => {
    const cases: ReadonlyArray<readonly [string, boolean]> = [
      ["/runs/", true],
      ["//RUNS//", true],
      ["/runs/run_1/steps/", true],
      ["/runs", false],
      ["/runs/run_1", false],
      ["/runs/run_1/", false],
      ["/healthz/", false],
      ["/", false],
      ["/nope/", false]
    ]
    for (const [path, empty] of cases) assert.strictEqual(routes.namesEmptyId(path), empty, path)
  })
})

describe("routeTable.templateOf", () => {
  const routes = routeTable(Overlapping, [{ method: "GET", path: "/healthz" }])

  it("names the declared path a request path matches, the most literal one when several do", () => {
    const cases: ReadonlyArray<readonly [string, string | undefined]> = [
      ["/runs/run_1", "/runs/:run_id"],
      ["/runs/latest", "/runs/latest"],
      ["/runs/run_1/cancel", "/runs/:run_id/cancel"],
      ["/runs/run_1/steps/step_2", "/runs/:run_id/steps/:step_id"],
      ["/healthz", "/healthz"],
      // As Effect's router reads a path: any case, repeated slashes, a trailing slash.
      ["/RUNS/Latest/", "/runs/latest"],
      ["//runs//run_1//cancel", "/runs/:run_id/cancel"],
      // Nothing declared: no label but `unmatched`'s.
      ["/runs", undefined],
      ["/runs/run_1/steps", undefined],
      ["/runs/run_1/cancel/now", undefined],
      ["/nope", undefined],
      ["/", undefined]
    ]
    for (const [path, template] of cases) assert.strictEqual(routes.templateOf(path), template, path)
  })

  it("answers what a search of the routes, literal ones first, answers, for any path", () => {
    const api = routeTable(Api, [])
    const declared: Array<string> = []
    HttpApi.reflect(Api, { onGroup: () => {}, onEndpoint: ({ endpoint }) => void declared.push(endpoint.path) })
    const parameters = (path: string) => path.split("/").filter((segment) => segment.startsWith(":")).length
    const ordered = [...declared].sort((a, b) => parameters(a) - parameters(b))
    const matches = (template: string, path: string) => {
      const wanted = template.split("/")
      const given = path.split("/")
      return (
        wanted.length === given.length &&
        wanted.every((segment, index) =>
          segment.startsWith(":") ? (given[index] ?? "") !== "" : segment === given[index]
        )
      )
    }
    const segment = fc.oneof(
      fc.constantFrom("api", "v1", "recommendations", "runs", "alerts", "accept", "cancel", "catalog", "reports"),
      fc.stringMatching(/^[a-z0-9_]{1,8}$/)
    )
    const anyPath = fc.array(segment, { minLength: 1, maxLength: 6 }).map((segments) => `/${segments.join("/")}`)
    // A declared path with each parameter filled in, sometimes with a literal of another route.
    const declaredPath = fc
      .tuple(fc.constantFrom(...declared), fc.array(segment, { minLength: 4, maxLength: 4 }))
      .map(([template, fillers]) =>
        template
          .split("/")
          .map((part, index) => (part.startsWith(":") ? (fillers[index % fillers.length] ?? "x") : part))
          .join("/")
      )
    fc.assert(
      fc.property(fc.oneof(anyPath, declaredPath), (path) => {
        assert.strictEqual(
          api.templateOf(path),
          ordered.find((template) => matches(template, path)),
          path
        )
      }),
      { numRuns: 2_000 }
    )
  })
})
