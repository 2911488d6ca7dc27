import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import { scopes } from "../access/Scope.ts"
import { narrowScopes, parseScopeParameter } from "./OAuthScopes.ts"

describe("OAuthScopes", () => {
  it("no scope parameter (or an empty one) asks for everything allowed, in the canonical order", () => {
    assert.deepStrictEqual(
      narrowScopes(undefined, ["catalog:read", "runs:read"]),
      Result.succeed(["runs:read", "catalog:read"])
    )
    assert.deepStrictEqual(narrowScopes("  ", [...scopes]), Result.succeed(scopes))
  })

  it("narrows to the named scopes, ignoring repeats and extra spaces", () => {
    assert.deepStrictEqual(
      narrowScopes("catalog:read  runs:read catalog:read", [...scopes]),
      Result.succeed(["runs:read", "catalog:read"])
    )
  })

  it("refuses an unknown scope and one wider than allowed, naming it", () => {
    assert.deepStrictEqual(
      narrowScopes("runs:read admin", [...scopes]),
      Result.fail({ _tag: "ScopeRefused", scope: "admin" })
    )
    assert.deepStrictEqual(
      narrowScopes("runs:read runs:trigger", ["runs:read"]),
      Result.fail({ _tag: "ScopeRefused", scope: "runs:trigger" })
    )
  })

  it("parses the parameter as a set", () => {
    assert.deepStrictEqual(parseScopeParameter(" a b  a "), ["a", "b"])
  })
})
