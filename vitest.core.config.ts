import { defineConfig } from "vitest/config"

/**
 * The tests of packages/core: pure code, no database, no processes. They share one module graph
 * per worker (isolate: false), so effect and the domain are imported once, not once per file.
 * `npm run test:core` runs them alone with this file (no database is started); `npm test` runs them
 * as the `core` project of vitest.config.ts.
 */
export const coreTests = {
  name: "core",
  include: ["packages/core/src/**/*.test.ts"],
  isolate: false
}

export default defineConfig({ test: coreTests })
