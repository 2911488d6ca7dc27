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
 * axe-core run on the console page as it is: no serious or critical violation. Injected through the
 * debugger, not the page (CSP). Saved as `<name>.png` when CONSOLE_SCREENSHOTS names a folder.
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

/** The page's one h1. */
export const heading = (page: Page) => promise(() => page.getByRole("heading", { level: 1 }).textContent())

/**
 * A form post as a page of the session would send it: with the CSRF token of the page's first form
 * (plus `form`), not following a redirect. The answer, to check what the server refused or did.
 */
export const postAsPage = (page: Page, url: string, form: Readonly<Record<string, string>> = {}) =>
  Effect.gen(function* () {
    const csrf = yield* promise(() => page.locator('input[name="csrf"]').first().inputValue())
    return yield* promise(() => page.request.post(url, { form: { csrf, ...form }, maxRedirects: 0 }))
  })
