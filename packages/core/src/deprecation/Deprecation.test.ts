import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import { addCalendarMonths, calendarDayStart, type Deprecation, validateDeprecations } from "./Deprecation.ts"

const problemsOf = (entries: ReadonlyArray<Deprecation>): ReadonlyArray<string> => {
  const checked = validateDeprecations(entries)
  return Result.isFailure(checked) ? checked.failure.problems : []
}

describe("Deprecation", () => {
  it("calendar days: real days only, read as midnight UTC", () => {
    assert.strictEqual(calendarDayStart("2026-03-01"), Date.parse("2026-03-01T00:00:00Z"))
    assert.strictEqual(calendarDayStart("2028-02-29"), Date.parse("2028-02-29T00:00:00Z"))
    assert.isUndefined(calendarDayStart("2026-02-29"))
    assert.isUndefined(calendarDayStart("2026-13-01"))
    assert.isUndefined(calendarDayStart("2026-3-1"))
    assert.isUndefined(calendarDayStart("tomorrow"))
  })

  it("six calendar months later is the same day, or the month's last when it has none", () => {
    assert.strictEqual(addCalendarMonths("2026-01-15", 6), "2026-07-15")
    assert.strictEqual(addCalendarMonths("2026-08-31", 6), "2027-02-28")
    assert.strictEqual(addCalendarMonths("2027-08-31", 6), "2028-02-29")
    assert.strictEqual(addCalendarMonths("2026-12-31", 6), "2027-06-30")
    assert.strictEqual(addCalendarMonths("2026-07-01", 6), "2027-01-01")
  })

  it("a registry whose sunsets are at least six months after their notices is valid", () => {
    const checked = validateDeprecations([
      { operation: "listRuns", notice: "2026-01-15", sunset: "2026-07-15" },
      {
        operation: "getRun",
        notice: "2026-08-31",
        sunset: "2027-02-28",
        replacement: "GET /api/v1/runs?id=…",
        link: "https://docs.example/deprecations/get-run"
      }
    ])
    assert.isTrue(Result.isSuccess(checked))
    if (Result.isSuccess(checked)) assert.deepStrictEqual([...checked.success.keys()], ["listRuns", "getRun"])
  })

  it("the empty registry is valid", () => {
    assert.isTrue(Result.isSuccess(validateDeprecations([])))
  })

  it("a sunset a day short of six months is refused, with the earliest allowed day", () => {
    const problems = problemsOf([{ operation: "listRuns", notice: "2026-01-15", sunset: "2026-07-14" }])
    assert.deepStrictEqual(problems, [
      "listRuns: sunset 2026-07-14 is less than 6 months after the notice 2026-01-15 (the earliest is 2026-07-15)"
    ])
  })

  it("reports every problem at once: bad days, bad identifiers, links, duplicates", () => {
    const problems = problemsOf([
      { operation: "list runs", notice: "2026-01-15", sunset: "2027-01-15" },
      { operation: "getRun", notice: "2026-02-30", sunset: "someday" },
      { operation: "listAlerts", notice: "2026-01-15", sunset: "2027-01-15", link: "ftp://x", replacement: " " },
      { operation: "listAlerts", notice: "2026-01-15", sunset: "2027-01-15" }
    ])
    assert.deepStrictEqual(problems, [
      `"list runs" is not an endpoint identifier (like listRuns)`,
      `getRun: notice "2026-02-30" is not a YYYY-MM-DD day`,
      `getRun: sunset "someday" is not a YYYY-MM-DD day`,
      `listAlerts: link "ftp://x" is not an http(s) URL`,
      "listAlerts: replacement is empty (leave it out instead)",
      "listAlerts is listed twice"
    ])
  })
})
