import type { RepositoryError } from "@margin/core/kernel/Errors"
import { OAuthRefused } from "@margin/core/oauth/OAuthErrors"
import type { ClientCredentials } from "@margin/core/oauth/OAuthServer"
import { Effect, Result } from "effect"
import type { HttpServerRequest, HttpServerResponse } from "effect/http"
import { clientCredentialsOf } from "./OAuthClientAuth.ts"
import { type OAuthParams, oauthParams } from "./OAuthParams.ts"
import { loggedFailure, oauthFailure, oauthJson } from "./OAuthResponses.ts"

/** A form body's parameters; an unreadable body is the client's error. */
export const formOf = (request: HttpServerRequest.HttpServerRequest) =>
  request.text.pipe(
    Effect.mapError(() => new OAuthRefused({ error: "invalid_request", description: "The form body cannot be read." })),
    Effect.flatMap((text) => Effect.fromResult(oauthParams(new URLSearchParams(text))))
  )

/**
 * A client's form POST (token, revocation): the form, then the client's credentials, then
 * `handle`; its answer as JSON, its refusal as an OAuth error, never cached.
 */
export const clientRequest = <A extends object>(
  request: HttpServerRequest.HttpServerRequest,
  handle: (params: OAuthParams, client: ClientCredentials) => Effect.Effect<A, OAuthRefused | RepositoryError>
): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  Effect.flatMap(Effect.result(formOf(request)), (form) => {
    if (Result.isFailure(form)) return loggedFailure(form.failure)
    const client = clientCredentialsOf(request.headers.authorization, form.success)
    if (Result.isFailure(client)) return loggedFailure(client.failure)
    return handle(form.success, client.success.credentials).pipe(
      Effect.matchEffect({
        onFailure: (failure) =>
          failure._tag === "RepositoryError"
            ? loggedFailure(failure)
            : Effect.succeed(oauthFailure(failure, client.success.usedBasic)),
        onSuccess: (body) => Effect.succeed(oauthJson(200, body))
      })
    )
  })
