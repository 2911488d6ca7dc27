import { assert, describe, it } from "@effect/vitest"
import { isGuarded, type Operation } from "@margin/core/operations/Operation"
import { operationCatalogue, operationGroups } from "@margin/core/operations/OperationCatalogue"
import { RouteAccess, routeAccess } from "@margin/edge/auth"
import { Context } from "effect"
import { HttpApi, type HttpApiEndpoint, OpenApi } from "effect/http-api"
import { VariantSchema } from "effect/schema"
import { Api } from "./Api.ts"
import { securityOf } from "./SecuritySchemes.ts"

/** The REST door against the operation catalogue: an endpoint the catalogue lacks, or one that says it differently, fails here. */

interface Declared {
  readonly group: string
  readonly endpoint: HttpApiEndpoint.Top
}

const declared: ReadonlyArray<Declared> = (() => {
  const found: Array<Declared> = []
  HttpApi.reflect(Api, {
    onGroup: () => undefined,
    onEndpoint: ({ group, endpoint }) => found.push({ group: group.identifier, endpoint })
  })
  return found
})()

const offered = operationCatalogue.filter((entry) => entry.rest !== null)
const entryOf = (name: string): Operation => {
  const entry = offered.find((each) => each.id === name)
  return entry === undefined ? assert.fail(`endpoint ${name} has no catalogue entry`) : entry
}

const document = OpenApi.fromApi(Api)
const record = (value: unknown): Readonly<Record<string, unknown>> => ({ ...Object(value) })
/** The OpenAPI operation of a route: its path with `{name}` parameters, its method in lower case. */
const described = (method: string, path: string) =>
  record(record(record(document.paths)[path.replace(/:(\w+)/g, "{$1}")])[method.toLowerCase()])

describe("Api and the operation catalogue", () => {
  it("declares exactly the catalogue's REST operations, each in its group, on its method and path", () => {
    assert.deepStrictEqual(
      declared.map(({ endpoint }) => endpoint.identifier).sort(),
      offered.map((entry) => entry.id).sort()
    )
    for (const { group, endpoint } of declared) {
      const entry = entryOf(endpoint.identifier)
      if (entry.rest === null) return assert.fail(`${entry.id} has no REST route`)
      assert.strictEqual(group, entry.group, endpoint.identifier)
      assert.strictEqual(endpoint.method, entry.rest.method, endpoint.identifier)
      assert.strictEqual(endpoint.path, entry.rest.path, endpoint.identifier)
    }
  })

  it("takes each endpoint's path and query parameters from its operation's declared input", () => {
    for (const entry of offered) {
      if (entry.rest === null) continue
      const parameters = record(described(entry.rest.method, entry.rest.path)).parameters
      const named = (place: string) =>
        (Array.isArray(parameters) ? parameters.map(record) : []).filter((p) => p.in === place).map((p) => p.name)
      // exportReport streams the whole report: its REST form takes none of the entry's (paging) input.
      const input = entry.id === "exportReport" ? null : entry.input
      assert.deepStrictEqual(named("path"), input === null ? [] : Object.keys(input.path), entry.id)
      assert.deepStrictEqual(
        named("query"),
        input === null ? [] : Object.keys(input.query[VariantSchema.TypeId]),
        entry.id
      )
    }
  })

  it("asks of each caller what the catalogue says: scope, mutation, session; nothing of the probes", () => {
    for (const { endpoint } of declared) {
      const entry = entryOf(endpoint.identifier)
      const access = Context.getOrUndefined(endpoint.annotations, RouteAccess)
      if (isGuarded(entry)) assert.deepStrictEqual(access, routeAccess(entry), endpoint.identifier)
      else assert.isUndefined(access, endpoint.identifier)
    }
  })

  it("says in the OpenAPI document what the catalogue says: summary, description, security, scope, role, repeat, tool", () => {
    for (const entry of offered) {
      if (entry.rest === null) continue
      const operation = described(entry.rest.method, entry.rest.path)
      assert.strictEqual(operation.summary, entry.summary, entry.id)
      assert.isTrue(String(operation.description).startsWith(entry.rest.description), entry.id)
      assert.deepStrictEqual(operation.tags, [entry.group], entry.id)
      if (isGuarded(entry)) {
        assert.deepStrictEqual(operation.security, securityOf(entry.access.credentials), entry.id)
        assert.strictEqual(operation["x-margin-scope"], entry.access.scope, entry.id)
        assert.strictEqual(operation["x-margin-role"], entry.access.role ?? undefined, entry.id)
        assert.strictEqual(operation["x-margin-repeat"], entry.repeat, entry.id)
        assert.strictEqual(operation["x-margin-mcp-tool"], entry.mcp?.name, entry.id)
      } else {
        assert.deepStrictEqual(operation.security, [], entry.id)
        assert.notProperty(operation, "x-margin-scope", entry.id)
      }
    }
    const tags = Array.isArray(document.tags) ? document.tags.map(record) : []
    for (const tag of tags) {
      const group = Object.entries(operationGroups).find(([name]) => name === tag.name)
      assert.isDefined(group, `tag ${String(tag.name)} is a group of the catalogue`)
      assert.strictEqual(tag.description, group?.[1], String(tag.name))
    }
  })

  it("offers the repeat shape {ok: true, idempotent: true} exactly for the idempotent commands", () => {
    for (const entry of offered) {
      if (entry.rest === null) continue
      const ok = record(record(record(described(entry.rest.method, entry.rest.path).responses)["200"]).content)
      assert.strictEqual(
        JSON.stringify(ok).includes("#/components/schemas/IdempotentRepeat"),
        entry.repeat === "idempotent",
        `${entry.id} (repeat: ${entry.repeat})`
      )
    }
  })
})
