import type { Deprecation } from "../deprecation/Deprecation.ts"

/** Deprecations of the tests only (production has none): one with a replacement and a link, one without. */
export const deprecatedListRuns: Deprecation = {
  operation: "listRuns",
  notice: "2026-01-15",
  sunset: "2026-07-15",
  replacement: "GET /api/v1/runs/{run_id}",
  link: "https://docs.example/deprecations/list-runs"
}

export const deprecatedGetRun: Deprecation = { operation: "getRun", notice: "2026-02-01", sunset: "2026-08-31" }
