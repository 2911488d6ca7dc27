// Prints one closing line over vitest JSON reports: "tests: N passed, N failed, N skipped".
// Exits non-zero when a report is missing, when any test failed, or when no test ran at all.
import { existsSync, readFileSync } from "node:fs"

interface Report {
  readonly numPassedTests: number
  readonly numFailedTests: number
  readonly numPendingTests: number
  readonly numTodoTests: number
}

let passed = 0
let failed = 0
let skipped = 0
let missing = 0
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`missing test report: ${file}`)
    missing++
    continue
  }
  const report: Report = JSON.parse(readFileSync(file, "utf8"))
  passed += report.numPassedTests
  failed += report.numFailedTests
  skipped += report.numPendingTests + report.numTodoTests
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(missing > 0 || failed > 0 || passed === 0 ? 1 : 0)
