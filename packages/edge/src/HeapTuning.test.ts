import { execFileSync } from "node:child_process"
import { pathToFileURL } from "node:url"
import { assert, describe, it } from "@effect/vitest"

/**
 * A process that keeps every object of one allocation place alive through young collections (what
 * V8 weighs for pretenuring), run with V8's pretenuring statistics on: how many times V8 weighed an
 * allocation place. The collections are forced, so that the count does not hang on the machine's
 * load; whether V8 then also decides to pretenure varies from run to run, so the count is of the
 * weighings, which pretenuring off leaves out altogether.
 */
const pretenuringFeedback = (tuned: boolean): number => {
  const module = pathToFileURL(`${import.meta.dirname}/HeapTuning.ts`).href
  const script = [
    `import { tuneHeapForServing } from ${JSON.stringify(module)}`,
    tuned ? "tuneHeapForServing()" : "",
    "const make = (i) => ({ a: i, b: [i, i] })",
    "for (let round = 0; round < 20; round++) {",
    "  const kept = []",
    "  for (let i = 0; i < 50000; i++) kept.push(make(i))",
    '  globalThis.gc({ type: "minor" })',
    '  globalThis.gc({ type: "minor" })',
    "}"
  ].join("\n")
  const output = execFileSync(
    process.execPath,
    ["--expose-gc", "--trace-pretenuring-statistics", "--input-type=module", "--eval", script],
    { encoding: "utf8", env: { PATH: process.env.PATH ?? "" } }
  )
  return output.split("\n").filter((line) => line.includes("pretenuring: AllocationSite(")).length
}

describe("tuneHeapForServing", () => {
  it("stops V8 from weighing allocation places for pretenuring, which it does by default", () => {
    // The control: without the tuning this Node version weighs them (else the check below proves nothing).
    assert.isAbove(pretenuringFeedback(false), 0)
    assert.strictEqual(pretenuringFeedback(true), 0)
  })
})
