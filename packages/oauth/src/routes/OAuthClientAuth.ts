import { OAuthRefused } from "@margin/core/oauth/OAuthErrors"
import type { ClientCredentials } from "@margin/core/oauth/OAuthServer"
import { unsafeCharacterIn } from "@margin/core/oauth/OAuthText"
import { Result } from "effect"
import type { OAuthParams } from "./OAuthParams.ts"

const basicPattern = /^Basic +([A-Za-z0-9+/=]+) *$/i

/**
 * `application/x-www-form-urlencoded` decoding of a Basic credential's parts (RFC 6749 section
 * 2.3.1), as URLSearchParams decodes (a malformed escape stays as sent rather than throwing).
 */
const formDecoded = (part: string): string => new URLSearchParams(`v=${part.replace(/&/g, "%26")}`).get("v") ?? ""

/**
 * Who the client says it is at the token and revocation endpoints: HTTP Basic, or `client_id`
 * (and `client_secret`) in the form. Both at once is refused (OAuth 2.1 section 2.4.1: one method).
 */
export const clientCredentialsOf = (
  authorization: string | undefined,
  params: OAuthParams
): Result.Result<{ readonly credentials: ClientCredentials; readonly usedBasic: boolean }, OAuthRefused> => {
  const basic = authorization === undefined ? undefined : basicPattern.exec(authorization)?.[1]
  if (basic === undefined) {
    const clientId = params("client_id")
    if (clientId === undefined) {
      return Result.fail(new OAuthRefused({ error: "invalid_client", description: "client_id is required." }))
    }
    return Result.succeed({ credentials: { clientId, clientSecret: params("client_secret") }, usedBasic: false })
  }
  if (params("client_secret") !== undefined) {
    return Result.fail(
      new OAuthRefused({ error: "invalid_request", description: "Use one client authentication method." })
    )
  }
  const decoded = Buffer.from(basic, "base64").toString("utf8")
  const colon = decoded.indexOf(":")
  if (colon < 0) {
    return Result.fail(new OAuthRefused({ error: "invalid_client", description: "Malformed Basic credentials." }))
  }
  const clientId = formDecoded(decoded.slice(0, colon))
  const clientSecret = formDecoded(decoded.slice(colon + 1))
  const unsafe = unsafeCharacterIn(clientId) ?? unsafeCharacterIn(clientSecret)
  if (unsafe !== undefined) {
    return Result.fail(
      new OAuthRefused({
        error: "invalid_request",
        description: `The Basic credentials hold a character that is not allowed (${unsafe}).`
      })
    )
  }
  const formId = params("client_id")
  if (formId !== undefined && formId !== clientId) {
    return Result.fail(
      new OAuthRefused({ error: "invalid_request", description: "client_id differs from the Basic credentials'." })
    )
  }
  return Result.succeed({ credentials: { clientId, clientSecret }, usedBasic: true })
}
