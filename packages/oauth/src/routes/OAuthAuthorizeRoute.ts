import { scopes as knownScopes, type Scope } from "@margin/core/access/Scope"
import { WorkspaceAccess } from "@margin/core/access/WorkspaceAccess"
import type { RepositoryError } from "@margin/core/kernel/Errors"
import { type UserId, WorkspaceId } from "@margin/core/kernel/Ids"
import type { OAuthRefused } from "@margin/core/oauth/OAuthErrors"
import { type AuthorizationRequest, OAuthServer } from "@margin/core/oauth/OAuthServer"
import { SignIn } from "@margin/core/oauth/SignIn"
import { mcpPath, originOf, PublicOrigin, untrustedHost } from "@margin/edge/serving"
import { Clock, Effect, Option, Result } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { csrfMatches, csrfOf, signedInUser } from "../browser/OAuthBrowserSession.ts"
import { OAuthLoginSettings } from "../browser/OAuthLoginSettings.ts"
import { consentPage, errorPage, htmlPage, loginPage, unavailablePage } from "../browser/OAuthPages.ts"
import { oauthPaths } from "./AuthorizationServerMetadata.ts"
import { type OAuthParams, oauthParams } from "./OAuthParams.ts"

/** The authorization request's own parameters, carried through the consent form unchanged. */
const requestParameterNames = [
  "response_type",
  "client_id",
  "redirect_uri",
  "state",
  "scope",
  "code_challenge",
  "code_challenge_method",
  "resource"
] as const

/** Back to the client (OAuth 2.1 section 4.1.2): the answer in the query, with `state` and `iss` (RFC 9207). */
const redirectTo = (redirectUri: string, answer: Readonly<Record<string, string | undefined>>) => {
  const url = new URL(redirectUri)
  for (const [name, value] of Object.entries(answer)) if (value !== undefined) url.searchParams.set(name, value)
  return HttpServerResponse.redirect(url, { status: 302, headers: { "cache-control": "no-store" } })
}

/** Where the consent form (and the redirect after it) may go: here, and the client's redirect URI's origin or scheme. */
const formTargetOf = (redirectUri: string): string => {
  const url = new URL(redirectUri)
  return url.protocol === "http:" || url.protocol === "https:" ? url.origin : url.protocol
}

/**
 * The authorization endpoint (OAuth 2.1 section 4.1.1) with its sign-in and consent pages. GET
 * checks the request, then shows the sign-in page (no signed-in user) or the consent page; the
 * consent form POSTs back here with the decision, and the browser is redirected to the client with
 * a code (or an error). Until the client and its redirect URI are known good, errors are shown
 * here, never redirected.
 */
export const layer = HttpRouter.addAll(
  Effect.gen(function* () {
    const server = yield* OAuthServer
    const settings = yield* PublicOrigin
    const login = yield* OAuthLoginSettings
    const signIn = yield* SignIn
    const access = yield* WorkspaceAccess

    /** The request checked: a page to show (client unknown), or the client's answer to redirect to, or the request. */
    const checked = Effect.fnUntraced(function* (origin: string, params: OAuthParams) {
      const client = yield* Effect.result(server.authorizationClient(params("client_id") ?? "", params("redirect_uri")))
      if (Result.isFailure(client)) {
        return Result.fail(
          errorPage(
            client.failure._tag === "OAuthRefused"
              ? client.failure.description
              : "The service is unavailable; try again."
          )
        )
      }
      const redirectUri = params("redirect_uri") ?? ""
      const refusedToClient = (refused: OAuthRefused) =>
        redirectTo(redirectUri, {
          error: refused.error,
          error_description: refused.description,
          state: params("state"),
          iss: origin
        })
      const authorization = yield* Effect.result(
        server.authorizationRequest({
          client: client.success,
          redirectUri,
          responseType: params("response_type"),
          codeChallenge: params("code_challenge"),
          codeChallengeMethod: params("code_challenge_method"),
          resource: params("resource"),
          scope: params("scope"),
          expectedResource: `${origin}${mcpPath}`
        })
      )
      if (Result.isFailure(authorization)) return Result.fail(refusedToClient(authorization.failure))
      return Result.succeed({ authorization: authorization.success, refusedToClient })
    })

    const consentView = Effect.fnUntraced(function* (
      request: HttpServerRequest.HttpServerRequest,
      origin: string,
      now: number,
      params: OAuthParams,
      authorization: AuthorizationRequest,
      userId: UserId
    ) {
      const user = yield* signIn.user(userId)
      const workspaces = yield* access.workspacesOf(userId)
      const csrf = csrfOf(login, request, origin, now)
      const carried: Record<string, string> = {}
      for (const name of requestParameterNames) {
        const value = params(name)
        if (value !== undefined) carried[name] = value
      }
      return consentPage({
        clientName: authorization.client.name,
        clientId: authorization.client.id,
        metadataUrl: authorization.client.metadataUrl,
        redirectUri: authorization.redirectUri,
        userEmail: Option.match(user, { onNone: () => userId, onSome: (found) => found.email }),
        workspaces,
        scopes: authorization.scopes,
        request: carried,
        csrf: csrf.token,
        formTargets: [formTargetOf(authorization.redirectUri)],
        cookies: csrf.cookies
      })
    })

    const show = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const origin = originOf(settings, request)
        if (origin === undefined) return errorPage(untrustedHost)
        const params = oauthParams(new URL(request.url, "http://localhost").searchParams)
        if (Result.isFailure(params)) return yield* refusedPage(params.failure.description)
        const outcome = yield* checked(origin, params.success)
        if (Result.isFailure(outcome)) return outcome.failure
        const now = yield* Clock.currentTimeMillis
        const userId = signedInUser(login, request, origin, now)
        if (userId !== undefined)
          return yield* consentView(request, origin, now, params.success, outcome.success.authorization, userId)
        if (!login.emailLink && login.oidc === undefined) {
          return htmlPage(
            503,
            "Sign-in is not configured",
            '<p role="alert">This server has no sign-in for AI agents\' consent: configure OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET (or OAUTH_DEV_LOGIN=true in development).</p>'
          )
        }
        const csrf = csrfOf(login, request, origin, now)
        return loginPage({
          csrf: csrf.token,
          returnTo: request.url,
          cookies: csrf.cookies,
          emailLink: login.emailLink,
          oidc: login.oidc !== undefined
        })
      })

    const decide = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const origin = originOf(settings, request)
        if (origin === undefined) return errorPage(untrustedHost)
        const text = yield* Effect.orElseSucceed(request.text, () => "")
        const search = new URLSearchParams(text)
        const params = oauthParams(search, ["grant_scope"])
        if (Result.isFailure(params)) return yield* refusedPage(params.failure.description)
        const now = yield* Clock.currentTimeMillis
        // The token is the signed-in session's own: a planted cookie or another session's token fails.
        if (!csrfMatches(login, request, origin, now, params.success("csrf"))) {
          return htmlPage(403, "This form has expired", `<p role="alert">Go back to the agent and start again.</p>`)
        }
        const userId = signedInUser(login, request, origin, now)
        if (userId === undefined) {
          return htmlPage(401, "You are signed out", `<p role="alert">Go back to the agent and start again.</p>`)
        }
        const outcome = yield* checked(origin, params.success)
        if (Result.isFailure(outcome)) return outcome.failure
        const { authorization, refusedToClient } = outcome.success
        const state = params.success("state")
        if (params.success("decision") !== "allow") {
          return redirectTo(authorization.redirectUri, {
            error: "access_denied",
            error_description: "The user denied the request.",
            state,
            iss: origin
          })
        }
        const chosen = search
          .getAll("grant_scope")
          .filter((name): name is Scope => (knownScopes as ReadonlyArray<string>).includes(name))
        const consented = yield* Effect.result(
          server.consent({
            request: authorization,
            userId,
            workspaceId: WorkspaceId.make(params.success("workspace_id") ?? ""),
            scopes: chosen
          })
        )
        if (Result.isFailure(consented)) {
          const failure = consented.failure
          return failure._tag === "OAuthRefused" ? refusedToClient(failure) : unavailablePage()
        }
        return redirectTo(authorization.redirectUri, { code: consented.success.code, state, iss: origin })
      })

    /** A request refused before it is read (a repeated parameter, a character not allowed): a page, logged. */
    const refusedPage = (description: string) =>
      Effect.as(Effect.logInfo("OAuth authorization request refused", description), errorPage(description))

    // A failing database is a 503 page, not a 500.
    const orUnavailable = <E extends { readonly _tag: string }>(
      effect: Effect.Effect<HttpServerResponse.HttpServerResponse, E | RepositoryError>
    ) =>
      Effect.catchIf(
        effect,
        (error): error is RepositoryError => error._tag === "RepositoryError",
        (error) => Effect.as(Effect.logWarning("OAuth page: the database failed", error.message), unavailablePage())
      )
    return [
      HttpRouter.route("GET", oauthPaths.authorize, (request: HttpServerRequest.HttpServerRequest) =>
        orUnavailable(show(request))
      ),
      HttpRouter.route("POST", oauthPaths.authorize, (request: HttpServerRequest.HttpServerRequest) =>
        orUnavailable(decide(request))
      )
    ]
  })
)
