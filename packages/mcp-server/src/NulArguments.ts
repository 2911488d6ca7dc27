import type { Issue } from "@margin/edge/wire"
import { nulMessage } from "@margin/edge/wire"

/**
 * One issue per argument whose text holds a NUL character, at any depth (`tags.1`): PostgreSQL text
 * cannot hold it, so such an argument would make the database refuse the query (an `unavailable`
 * error) where the agent is owed a `validation_error` naming the argument.
 */
export const nulArgumentIssues = (params: unknown): ReadonlyArray<Issue> => {
  const issues: Array<Issue> = []
  const visit = (value: unknown, path: string) => {
    if (typeof value === "string") {
      if (value.includes("\0")) issues.push({ path, message: nulMessage })
    } else if (typeof value === "object" && value !== null) {
      // Arrays too: their keys are the indexes.
      for (const [key, element] of Object.entries(value)) visit(element, path === "" ? key : `${path}.${key}`)
    }
  }
  visit(params, "")
  return issues
}
