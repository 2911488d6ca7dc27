import { readFileSync } from "node:fs"
import { assert, describe, it } from "@effect/vitest"
import type { Deprecation } from "@margin/core/deprecation/Deprecation"
import { Effect, Exit } from "effect"
import { DeprecatedOperations, deprecationsInUse, productionDeprecations } from "./DeprecatedOperations.ts"

/** The published reference lists the deprecated operations (docs/contract.md, "Versioning and deprecation"): docs/api.md. */
const reference = new URL("../../../../docs/api.md", import.meta.url)
const heading = "### Deprecated operations"

/** The table docs/api.md must show for `entries`: one row each, or no table at all (the section then says "None."). */
const tableOf = (entries: ReadonlyArray<Deprecation>): ReadonlyArray<string> =>
  entries.length === 0
    ? []
    : [
        "| Operation | Notice | Sunset (earliest removal) | Instead | Details |",
        "|---|---|---|---|---|",
        ...entries.map(
          (entry) =>
            `| \`${entry.operation}\` | ${entry.notice} | ${entry.sunset} | ${entry.replacement ?? "none"} | ${entry.link ?? ""} |`
        )
      ]

const sectionOf = (markdown: string): ReadonlyArray<string> => {
  const lines = markdown.split("\n")
  const start = lines.indexOf(heading)
  assert.notStrictEqual(start, -1, `docs/api.md has no "${heading}" section`)
  const end = lines.findIndex((line, index) => index > start && line.startsWith("#"))
  return lines.slice(start + 1, end === -1 ? undefined : end)
}

describe("DeprecatedOperations", () => {
  it.effect("production deprecates nothing today (docs/contract.md: none), and that registry is valid", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(productionDeprecations, [])
      assert.strictEqual((yield* deprecationsInUse).size, 0)
    })
  )

  it("docs/api.md lists exactly the production deprecations, so the registry stays the one place", () => {
    const section = sectionOf(readFileSync(reference, "utf8"))
    const rows = section.filter((line) => line.startsWith("|"))
    const expected = tableOf(productionDeprecations)
    assert.deepStrictEqual(
      rows,
      expected,
      `docs/api.md, "${heading}", must show:\n${expected.length === 0 ? "None." : expected.join("\n")}`
    )
    if (productionDeprecations.length === 0) assert.include(section, "None.")
  })

  it.effect("a test's own deprecations replace production's; invalid ones fail to load", () =>
    Effect.gen(function* () {
      const listRuns: Deprecation = { operation: "listRuns", notice: "2026-01-15", sunset: "2026-07-15" }
      const loaded = yield* deprecationsInUse.pipe(Effect.provideService(DeprecatedOperations, [listRuns]))
      assert.deepStrictEqual([...loaded.values()], [listRuns])
      const invalid = yield* Effect.exit(
        deprecationsInUse.pipe(Effect.provideService(DeprecatedOperations, [{ ...listRuns, sunset: "2026-03-01" }]))
      )
      assert.isTrue(Exit.isFailure(invalid))
      assert.match(String(Exit.isFailure(invalid) ? invalid.cause : ""), /less than 6 months after the notice/)
      assert.deepStrictEqual(tableOf([{ ...listRuns, link: "https://docs.example/x" }]).slice(2), [
        "| `listRuns` | 2026-01-15 | 2026-07-15 | none | https://docs.example/x |"
      ])
    })
  )
})
