import { mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { promise } from "./HeadlessChromium.ts"

/** When set, the pages checked are also saved there as PNG (docs/console/*.png). */
export const screenshots = process.env.CONSOLE_SCREENSHOTS

/** axe-core's source, injected into each page checked. */
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

/** Evaluated in the page once axe is injected: the serious and critical violations, as lines. */
const seriousViolations = `axe.run(document, { resultTypes: ["violations"] }).then((results) =>
  results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => violation.id + ": " + violation.help + " (" + violation.nodes.map((node) => node.target.join(" ")).join(", ") + ")"))`

/**
 * axe-core run on the page as it is: no serious or critical violation. Injected through the
 * debugger, not the page (the console's CSP forbids inline script). Saves a screenshot named
 * `name` when CONSOLE_SCREENSHOTS is set.
 */
export const noSeriousViolations = (page: Page, name: string) =>
  Effect.gen(function* () {
    yield* promise(() => page.evaluate(axeSource))
    const found = yield* promise(() => page.evaluate<Array<string>>(seriousViolations))
    assert.deepStrictEqual(found, [], `axe on ${name}`)
    if (screenshots !== undefined) {
      mkdirSync(screenshots, { recursive: true })
      yield* promise(() => page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true }))
    }
  })

/** The page's level-1 heading. */
export const heading = (page: Page) => promise(() => page.getByRole("heading", { level: 1 }).textContent())
