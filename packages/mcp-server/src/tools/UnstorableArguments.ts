import type { Issue } from "@margin/edge/wire"
import { nulMessage } from "@margin/edge/wire"

/** Why a string with a lone surrogate is refused. */
export const loneSurrogateMessage = "must not contain a lone surrogate (no UTF-8 text can hold one)"

/**
 * One issue per argument whose text cannot be stored as sent, at any depth (`tags.1`): a NUL
 * character, which PostgreSQL text cannot hold (the database would refuse the query: an
 * `unavailable` error where the agent is owed a `validation_error` naming the argument), or a lone
 * surrogate (a `\ud800` escape), which has no UTF-8 form and would be stored as U+FFFD, silently
 * other than what was sent. REST refuses the same text in a body as 400 (Utf8JsonBody of @margin/rest).
 */
export const unstorableArgumentIssues = (params: unknown): ReadonlyArray<Issue> => {
  const issues: Array<Issue> = []
  const visit = (value: unknown, path: string) => {
    if (typeof value === "string") {
      if (value.includes("\0")) issues.push({ path, message: nulMessage })
      else if (!value.isWellFormed()) issues.push({ path, message: loneSurrogateMessage })
    } else if (typeof value === "object" && value !== null) {
      // Arrays too: their keys are the indexes.
      for (const [key, element] of Object.entries(value)) visit(element, path === "" ? key : `${path}.${key}`)
    }
  }
  visit(params, "")
  return issues
}
