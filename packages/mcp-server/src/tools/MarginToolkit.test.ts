import { assert, describe, it } from "@effect/vitest"
import { isGuarded, isIdempotent, isMutation } from "@margin/core/operations/Operation"
import { operationCatalogue, operationOfTool } from "@margin/core/operations/OperationCatalogue"
import { routeAccess } from "@margin/edge/auth"
import { Context, Predicate } from "effect"
import { Tool } from "effect/ai"
import { VariantSchema } from "effect/schema"
import { accessOf } from "./MarginTool.ts"
import { MarginToolkit, toolAccess } from "./MarginToolkit.ts"

/** The MCP door against the operation catalogue: a tool the catalogue lacks, or one that says it differently, fails here. */

const tools = Object.values(MarginToolkit.tools)
const offered = operationCatalogue.flatMap((entry) => (entry.mcp === null ? [] : [entry.mcp.name]))

describe("MarginToolkit and the operation catalogue", () => {
  it("offers exactly the catalogue's MCP tools", () => {
    assert.deepStrictEqual(tools.map((tool) => tool.name).sort(), [...offered].sort())
  })

  it("takes each tool's title, description, hints and access from its operation", () => {
    for (const tool of tools) {
      const entry = operationOfTool.get(tool.name)
      if (entry === undefined || entry.mcp === null || !isGuarded(entry)) {
        return assert.fail(`tool ${tool.name} has no catalogue entry with access`)
      }
      assert.strictEqual(tool.description, entry.mcp.description, tool.name)
      assert.strictEqual(Context.getOrUndefined(tool.annotations, Tool.Title), entry.summary, tool.name)
      assert.deepStrictEqual(
        {
          readOnly: Context.get(tool.annotations, Tool.Readonly),
          destructive: Context.get(tool.annotations, Tool.Destructive),
          idempotent: Context.get(tool.annotations, Tool.Idempotent),
          openWorld: Context.get(tool.annotations, Tool.OpenWorld)
        },
        {
          readOnly: !isMutation(entry),
          destructive: entry.mcp.destructive,
          idempotent: isIdempotent(entry),
          openWorld: entry.mcp.openWorld
        },
        tool.name
      )
      const access = routeAccess(entry)
      assert.deepStrictEqual(accessOf(tool), access, tool.name)
      assert.deepStrictEqual(toolAccess.get(tool.name), access, tool.name)
    }
  })

  it("takes each tool's arguments from its operation's input, every one described", () => {
    for (const tool of tools) {
      const entry = operationOfTool.get(tool.name)
      const schema = Tool.getJsonSchema(tool)
      const properties = Predicate.hasProperty(schema, "properties") ? Object(schema.properties) : {}
      const input = entry?.input ?? null
      const body = input?.body
      const headers = input?.headers
      const declared =
        input === null
          ? []
          : [
              ...Object.keys(input.path),
              ...Object.keys(input.query[VariantSchema.TypeId]),
              ...Object.keys(Predicate.hasProperty(body, "fields") ? Object(body.fields) : {}),
              ...Object.keys(Predicate.hasProperty(headers, "fields") ? Object(headers.fields) : {})
            ]
      assert.deepStrictEqual(Object.keys(properties), declared, tool.name)
      for (const [name, property] of Object.entries(properties)) {
        assert.isString(
          Predicate.hasProperty(property, "description") ? property.description : undefined,
          `${tool.name}.${name}`
        )
      }
    }
  })

  it("answers an idempotent command with its idempotent flag, so that a repeat says so", () => {
    for (const tool of tools) {
      const entry = operationOfTool.get(tool.name)
      if (entry?.repeat !== "idempotent") continue
      const success = tool.successSchema
      const fields = Predicate.hasProperty(success, "fields") ? Object(success.fields) : {}
      assert.property(fields, "idempotent", tool.name)
    }
  })
})
