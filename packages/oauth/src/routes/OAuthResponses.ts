import type { RepositoryError } from "@margin/core/kernel/Errors"
import type { OAuthRefused } from "@margin/core/oauth/OAuthErrors"
import { failureResponse } from "@margin/edge/wire"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"

/**
 * Tokens and errors of the authorization server are never cached (OAuth 2.1 section 3.2.3), nor
 * read as other than JSON.
 */
export const noStore = {
  "cache-control": "no-store",
  pragma: "no-cache",
  "x-content-type-options": "nosniff"
} as const

export const oauthJson = (status: number, body: object, headers: Readonly<Record<string, string>> = {}) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { ...noStore, ...headers } })

/**
 * An OAuth error (OAuth 2.1 section 3.2.4): 401 for a client that failed to authenticate, with a
 * Basic challenge when it tried Basic; 400 for the rest. The database failing is our envelope's 503.
 */
export const oauthFailure = (failure: OAuthRefused | RepositoryError, usedBasic = false) => {
  if (failure._tag === "RepositoryError") {
    const { status, headers, body } = failureResponse(failure)
    return oauthJson(status, body, headers)
  }
  const body = { error: failure.error, error_description: failure.description }
  if (failure.error !== "invalid_client") return oauthJson(400, body)
  return oauthJson(401, body, usedBasic ? { "www-authenticate": `Basic realm="margin"` } : {})
}

/**
 * `oauthFailure`, logged: a request refused before it reached the server's rules (a malformed
 * form or credential, a character that is not allowed) at Info with its description, the
 * database failing at Warning. A client's ordinary refusals (wrong code, expired token) are
 * only in the request's log line.
 */
export const loggedFailure = (failure: OAuthRefused | RepositoryError, usedBasic = false) =>
  Effect.as(
    failure._tag === "RepositoryError"
      ? Effect.logWarning("OAuth request: the database failed", failure.message)
      : Effect.logInfo("OAuth request refused", failure.error, failure.description),
    oauthFailure(failure, usedBasic)
  )
