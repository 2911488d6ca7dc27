import type { Deprecation } from "@margin/core/deprecation/Deprecation"

/** Deprecations of the tests only (production has none): one with a replacement and a link, two without. */
export const testDeprecations: ReadonlyArray<Deprecation> = [
  {
    operation: "listRuns",
    notice: "2026-01-15",
    sunset: "2030-07-15",
    replacement: "GET /api/v1/runs/{run_id}",
    link: "https://docs.example/deprecations/list-runs"
  },
  { operation: "getRun", notice: "2026-02-01", sunset: "2030-08-31" },
  { operation: "getAlert", notice: "2026-03-01", sunset: "2030-09-30" }
]
