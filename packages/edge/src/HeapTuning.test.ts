import { execFileSync } from "node:child_process"
import { pathToFileURL } from "node:url"
import { assert, describe, it } from "@effect/vitest"

/**
 * A process that keeps every object of one allocation place alive across young collections (what
 * V8 reads as "long-lived, allocate it old"), run with V8's pretenuring statistics on: how many
 * times V8 decided to pretenure that place.
 */
const pretenuringDecisions = (tuned: boolean): number => {
  const module = pathToFileURL(`${import.meta.dirname}/HeapTuning.ts`).href
  const script = [
    `import { tuneHeapForServing } from ${JSON.stringify(module)}`,
    tuned ? "tuneHeapForServing()" : "",
    "const make = (i) => ({ a: i, b: [i, i] })",
    "let kept = []",
    "for (let round = 0; round < 30; round++) {",
    "  for (let i = 0; i < 200000; i++) kept.push(make(i))",
    "  kept = []",
    "}"
  ].join("\n")
  const output = execFileSync(
    process.execPath,
    ["--trace-pretenuring-statistics", "--input-type=module", "--eval", script],
    { encoding: "utf8", env: { PATH: process.env.PATH ?? "" } }
  )
  return output.split("\n").filter((line) => line.includes("=> tenure")).length
}

describe("tuneHeapForServing", () => {
  it("stops V8 from pretenuring an allocation place whose objects all survive, which it does by default", () => {
    // The control: without the tuning this Node version does pretenure (else the check below proves nothing).
    assert.isAbove(pretenuringDecisions(false), 0)
    assert.strictEqual(pretenuringDecisions(true), 0)
  })
})
