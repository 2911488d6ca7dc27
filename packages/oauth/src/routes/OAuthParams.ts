import { OAuthRefused } from "@margin/core/oauth/OAuthErrors"
import { unsafeCharacterIn } from "@margin/core/oauth/OAuthText"
import { Result } from "effect"

/** The parameters of an OAuth request, one value each: a value never sent and an empty one are both absent. */
export type OAuthParams = (name: string) => string | undefined

/**
 * Reads a query or form body (RFC 6749 section 3.1: parameters without a value are omitted ones,
 * and none may be sent twice: a repeated one refuses the request rather than picking one). A
 * name or value holding a control, separator or bidi character (`unsafeCharacterIn`: NUL, CR, LF,
 * U+2028, U+202E...) refuses the request too: no such value reaches a page, a header or the database.
 */
export const oauthParams = (
  search: URLSearchParams,
  /** Names that are not OAuth parameters and may repeat (the consent form's ticked scopes). */
  repeatable: ReadonlyArray<string> = []
): Result.Result<OAuthParams, OAuthRefused> => {
  const seen = new Set<string>()
  for (const [name, value] of search) {
    const unsafe = unsafeCharacterIn(name) ?? unsafeCharacterIn(value)
    if (unsafe !== undefined) {
      return Result.fail(
        new OAuthRefused({
          error: "invalid_request",
          description: `${unsafeCharacterIn(name) === undefined ? name : "A parameter"} holds a character that is not allowed (${unsafe}).`
        })
      )
    }
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
