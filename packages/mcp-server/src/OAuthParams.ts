import { OAuthRefused } from "@margin/core/OAuthErrors"
import { Result } from "effect"

/** The parameters of an OAuth request, one value each: a value never sent and an empty one are both absent. */
export type OAuthParams = (name: string) => string | undefined

/**
 * Reads a query or form body (RFC 6749 section 3.1: parameters without a value are omitted ones,
 * and none may be sent twice: a repeated one refuses the request rather than picking one).
 */
export const oauthParams = (
  search: URLSearchParams,
  /** Names that are not OAuth parameters and may repeat (the consent form's ticked scopes). */
  repeatable: ReadonlyArray<string> = []
): Result.Result<OAuthParams, OAuthRefused> => {
  const seen = new Set<string>()
  for (const [name, value] of search) {
    if (value === "" || repeatable.includes(name)) continue
    if (seen.has(name)) {
      return Result.fail(new OAuthRefused({ error: "invalid_request", description: `${name} is sent more than once.` }))
    }
    seen.add(name)
  }
  return Result.succeed((name) => {
    const value = search.get(name)
    return value === null || value === "" ? undefined : value
  })
}
