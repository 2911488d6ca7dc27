import { defineConfig } from "vitest/config"
import { coreTests } from "./vitest.core.config.ts"

export default defineConfig({
  test: {
    projects: [
      { extends: true, test: coreTests },
      {
        extends: true,
        test: {
          name: "packages",
          include: ["packages/*/src/**/*.test.ts", "packages/*/test/**/*.test.ts"],
          exclude: ["packages/core/**", "**/node_modules/**"]
        }
      },
      {
        extends: true,
        test: {
          name: "apps",
          include: ["apps/*/src/**/*.test.ts", "apps/*/test/**/*.test.ts"],
          // Every answer the REST test kit receives is checked against the OpenAPI document.
          setupFiles: ["packages/runtime/src/testing/ResponseConformanceSetup.ts"]
        }
      },
      // The simulated market's own tests (bench/market): structure, not targets or timings.
      { extends: true, test: { name: "bench", include: ["bench/**/*.test.ts"] } },
      // The boundary check's own tests (scripts/boundaries.ts).
      { extends: true, test: { name: "scripts", include: ["scripts/**/*.test.ts"] } }
    ],
    // The embedded test server and the migrated template, once per run (TestDatabase).
    globalSetup: ["packages/postgres/test/globalSetup.ts"],
    // Generous: CI runs on 2 cores, and some tests start databases and processes.
    testTimeout: 60_000,
    hookTimeout: 180_000
  }
})
