import { assert, describe, it } from "@effect/vitest"
import { operationCatalogue } from "@margin/core/operations/OperationCatalogue"
import { failureCodes, ListJson, transportCodes } from "@margin/edge/wire"
import { Schema } from "effect"
import { instructions } from "./ServerInfo.ts"

/** The instructions are prose an agent acts on: a tool they name must be a tool, by its full name. */

const tools = operationCatalogue.flatMap((entry) => (entry.mcp === null ? [] : [entry.mcp.name]))

/** The snake_case words of the text: how a tool, an error code or a wire field is written. */
const snakeCaseWords = [...new Set(instructions.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? [])]

/** What else the text may name in snake_case: an error code, or a field of a list's page. */
const errorCodes = new Set<string>([
  ...Object.values(failureCodes).map((entry) => entry.code),
  ...Object.values(transportCodes)
])
const listFields = new Set(Object.keys(ListJson(Schema.Unknown, "Page").fields))

describe("the MCP server's instructions and the operation catalogue", () => {
  it("name no tool the catalogue lacks: every snake_case word is a tool, an error code or a list field", () => {
    const unknown = snakeCaseWords.filter(
      (word) => !tools.includes(word) && !errorCodes.has(word) && !listFields.has(word)
    )
    assert.deepStrictEqual(unknown, [])
  })

  it("name every tool of the catalogue", () => {
    assert.deepStrictEqual(
      tools.filter((tool) => !snakeCaseWords.includes(tool)),
      []
    )
  })
})
