import { execFileSync } from "node:child_process"
import { pathToFileURL } from "node:url"
import { assert, describe, it } from "@effect/vitest"

const module = pathToFileURL(`${import.meta.dirname}/V8Tuning.ts`).href

/** A module script run in a child process with `flags`, tuned first or not; its whole output. */
const runScript = (tuned: boolean, flags: ReadonlyArray<string>, body: ReadonlyArray<string>): string =>
  execFileSync(
    process.execPath,
    [
      ...flags,
      "--input-type=module",
      "--eval",
      [`import { tuneV8ForServing } from ${JSON.stringify(module)}`, tuned ? "tuneV8ForServing()" : "", ...body].join(
        "\n"
      )
    ],
    { encoding: "utf8", env: { PATH: process.env.PATH ?? "" } }
  )

/**
 * A process that keeps every object of one allocation place alive through young collections (what
 * V8 weighs for pretenuring), run with V8's pretenuring statistics on: how many times V8 weighed an
 * allocation place. The collections are forced, so that the count does not hang on the machine's
 * load; whether V8 then also decides to pretenure varies from run to run, so the count is of the
 * weighings, which pretenuring off leaves out altogether.
 */
const pretenuringFeedback = (tuned: boolean): number =>
  runScript(
    tuned,
    ["--expose-gc", "--trace-pretenuring-statistics"],
    [
      "const make = (i) => ({ a: i, b: [i, i] })",
      "for (let round = 0; round < 20; round++) {",
      "  const kept = []",
      "  for (let i = 0; i < 50000; i++) kept.push(make(i))",
      '  globalThis.gc({ type: "minor" })',
      '  globalThis.gc({ type: "minor" })',
      "}"
    ]
  )
    .split("\n")
    .filter((line) => line.includes("pretenuring: AllocationSite(")).length

/**
 * Whether V8 chose TurboFan for a function called `calls` times, as a request's code is called once
 * per request: the calls come from a loop that is never compiled itself (no on-stack replacement),
 * so that the function is not inlined into it and counts its own invocations; compilation on the
 * main thread (`--single-threaded`), so that the count does not hang on how soon a background
 * compile finishes.
 */
const reachesTurbofan = (tuned: boolean, calls: number): boolean =>
  runScript(
    tuned,
    ["--trace-opt", "--no-use-osr", "--single-threaded"],
    [
      "function requestStep(values) {",
      "  let total = 0",
      "  for (const value of values) total += value.length",
      "  return total",
      "}",
      'const values = ["a", "bb", "ccc"]',
      `for (let call = 0; call < ${calls}; call++) requestStep(values)`
    ]
  )
    .split("\n")
    .some((line) => line.includes("<JSFunction requestStep") && line.includes("TURBOFAN"))

describe("tuneV8ForServing", () => {
  it("stops V8 from weighing allocation places for pretenuring, which it does by default", () => {
    // The control: without the tuning this Node version weighs them (else the check below proves nothing).
    assert.isAbove(pretenuringFeedback(false), 0)
    assert.strictEqual(pretenuringFeedback(true), 0)
  })

  it("has code called once per request chosen for TurboFan after a tenth of V8's default calls", () => {
    // The control: by default 2,000 calls leave the function short of TurboFan.
    assert.isFalse(reachesTurbofan(false, 2_000))
    assert.isTrue(reachesTurbofan(true, 2_000))
  })
})
