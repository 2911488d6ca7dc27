import { describe, expect, it } from "@effect/vitest"
import { aRun } from "@margin/core/testing/Fixtures"
import type { PageContext } from "./ConsolePage.ts"
import { runPage } from "./RunsPage.ts"

const context: PageContext = { workspace: { id: "ws_a", name: "Shop" }, role: "analyst", email: null, csrf: "t" }

const html = async (status: "queued" | "running" | "succeeded", analysed: number) => {
  const response = runPage({
    context,
    workspaceId: "ws_a",
    run: aRun({ status, itemsTotal: 40, itemsAnalysed: analysed }),
    notice: null
  })
  return response.body._tag === "Uint8Array" ? new TextDecoder().decode(response.body.body) : ""
}

describe("runPage", () => {
  it("is live while the run moves: live.js re-reads its progress, and it reloads itself without JavaScript", async () => {
    const page = await html("running", 12)
    expect(page).toContain('id="run-progress" data-live="on" data-status="running"')
    expect(page).toContain('<progress id="run-progress-bar" max="40" value="12">')
    expect(page).toContain("12 of 40 items analysed")
    expect(page).toContain('<noscript><meta http-equiv="refresh" content="5"></noscript>')
  })

  it("stops being live once the run has ended, its bar full", async () => {
    const page = await html("succeeded", 40)
    expect(page).toContain('id="run-progress" data-live="off" data-status="succeeded"')
    expect(page).toContain('<progress id="run-progress-bar" max="40" value="40">')
    expect(page).not.toContain("http-equiv")
  })
})
