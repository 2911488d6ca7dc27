import { assert, describe, it } from "@effect/vitest"
import { acceptsSession, isGuarded, isMutation } from "../../src/operations/Operation.ts"
import { operationCatalogue, operationOfTool, sessionScopes } from "../../src/operations/OperationCatalogue.ts"
import { deciderRole, mayDecide, roleRank, roles } from "../access/Role.ts"

/** "approver, admin or owner": the roles the decider rule lets through, as the descriptions say them. */
const decidersInWords = (() => {
  const allowed = roles.slice(roleRank(deciderRole))
  return `${allowed.slice(0, -1).join(", ")} or ${allowed.at(-1)}`
})()

const unique = (values: ReadonlyArray<string>): boolean => new Set(values).size === values.length

describe("OperationCatalogue", () => {
  it("names every operation, route and tool once", () => {
    assert.isTrue(unique(operationCatalogue.map((entry) => entry.id)))
    const routes = operationCatalogue.flatMap((entry) =>
      entry.rest === null ? [] : [`${entry.rest.method} ${entry.rest.path}`]
    )
    assert.isTrue(unique(routes), routes.join("\n"))
    const tools = operationCatalogue.flatMap((entry) => (entry.mcp === null ? [] : [entry.mcp.name]))
    assert.isTrue(unique(tools), tools.join("\n"))
    assert.deepStrictEqual([...operationOfTool.keys()], tools)
    for (const entry of operationCatalogue) {
      assert.isTrue(entry.rest !== null || entry.mcp !== null, `${entry.id} is offered by some door`)
      if (entry.mcp !== null) assert.match(entry.mcp.name, /^[a-z]+(_[a-z]+)+$/, entry.id)
      assert.isAbove(entry.summary.length, 0, entry.id)
    }
  })

  it("asks a credential for every operation but the probes, which live outside /api/v1 and offer no tool", () => {
    for (const entry of operationCatalogue) {
      const path = entry.rest?.path ?? ""
      if (isGuarded(entry)) {
        assert.isTrue(entry.rest === null || path.startsWith("/api/v1/"), entry.id)
        assert.strictEqual(entry.access.credentials[0], "token", `${entry.id} takes an API token`)
      } else {
        assert.strictEqual(entry.group, "system", entry.id)
        assert.isFalse(isMutation(entry), entry.id)
        assert.isNull(entry.mcp, entry.id)
        assert.isFalse(path.startsWith("/api/v1/"), entry.id)
      }
    }
  })

  it("lets a session do exactly approve, reject, undo and workspace status (docs/contract.md, who may call)", () => {
    const withSessions = operationCatalogue.filter(acceptsSession)
    assert.deepStrictEqual(
      withSessions.map((entry) => entry.id),
      ["approveRecommendation", "rejectRecommendation", "undoPriceChange", "getWorkspaceStatus"]
    )
    assert.deepStrictEqual(sessionScopes, ["recommendations:approve", "workspace:read"])
  })

  it("puts the role rule on approve, reject and undo only, the rule the use case applies, and both doors say it", () => {
    const withRole = operationCatalogue.filter((entry) => isGuarded(entry) && entry.access.role !== null)
    assert.deepStrictEqual(
      withRole.map((entry) => entry.id),
      ["approveRecommendation", "rejectRecommendation", "undoPriceChange"]
    )
    for (const entry of operationCatalogue) {
      const role = isGuarded(entry) ? entry.access.role : null
      const said = `Needs the role ${decidersInWords}`
      for (const description of [entry.rest?.description, entry.mcp?.description]) {
        if (description === undefined) continue
        if (role === null) assert.notInclude(description, "Needs the role", entry.id)
        else assert.include(description, said, entry.id)
      }
      if (role !== null) {
        assert.strictEqual(role, deciderRole)
        // The catalogue's rule and the use case's (`mayDecide`) let the same roles through.
        for (const each of roles) assert.strictEqual(mayDecide(each), roleRank(each) >= roleRank(role), each)
      }
    }
  })

  it("tells the repeat shape in both doors' words: idempotent: true for an idempotent command, a conflict otherwise", () => {
    for (const entry of operationCatalogue) {
      const rest = entry.rest?.description
      const mcp = entry.mcp?.description
      if (entry.repeat === "idempotent") {
        if (rest !== undefined) assert.include(rest, "{ok: true, idempotent: true}", entry.id)
        if (mcp !== undefined) assert.include(mcp, "answers idempotent: true", entry.id)
      } else {
        for (const description of [rest, mcp]) {
          if (description !== undefined) assert.notInclude(description, "idempotent: true", entry.id)
        }
      }
      if (entry.repeat === "conflict") {
        for (const description of [rest, mcp]) {
          if (description !== undefined) assert.include(description, "is a conflict", entry.id)
        }
      }
      if (entry.repeat === "new" && mcp !== undefined) assert.include(mcp, "Each call", entry.id)
    }
  })
})
