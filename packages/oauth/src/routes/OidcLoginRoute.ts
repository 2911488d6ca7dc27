import { createHash, randomBytes } from "node:crypto"
import { SignIn } from "@margin/core/oauth/SignIn"
import { originOf, PublicOrigin, untrustedHost } from "@margin/edge/serving"
import { Clock, Effect, Option, Redacted, Schema } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { createRemoteJWKSet, jwtVerify } from "jose"
import {
  cookieName,
  linkLifetimeMs,
  safeReturnTo,
  sessionPageCookie,
  signInCookie
} from "../browser/OAuthBrowserSession.ts"
import { OAuthLoginSettings, type OidcSettings } from "../browser/OAuthLoginSettings.ts"
import { errorPage } from "../browser/OAuthPages.ts"
import { signValue, verifyValue } from "../browser/SignedValue.ts"

export const oidcPaths = { start: "/oauth/login/oidc", callback: "/oauth/login/oidc/callback" } as const

/** The pending sign-in, in a signed cookie: the state and nonce to expect back, the PKCE verifier, where to return. */
const pendingCookie = "margin_oidc"

const Pending = Schema.Struct({
  state: Schema.String,
  nonce: Schema.String,
  verifier: Schema.String,
  returnTo: Schema.String
})
const decodePending = Schema.decodeUnknownOption(Schema.fromJsonString(Pending))

const Discovery = Schema.Struct({
  issuer: Schema.String,
  authorization_endpoint: Schema.String,
  token_endpoint: Schema.String,
  jwks_uri: Schema.String
})
const decodeDiscovery = Schema.decodeUnknownEffect(Discovery)
const decodeTokens = Schema.decodeUnknownEffect(Schema.Struct({ id_token: Schema.String }))

const random = () => randomBytes(32).toString("base64url")

class OidcFailed extends Schema.TaggedError<OidcFailed>()("OidcFailed", { reason: Schema.String }) {}

const failed = (reason: string) => new OidcFailed({ reason })

const fetchJson = (url: string, init?: RequestInit) =>
  Effect.tryPromise({
    try: async () => {
      const response = await fetch(url, { ...init, redirect: "error", signal: AbortSignal.timeout(10_000) })
      if (!response.ok) throw new Error(`${url} answered ${response.status}`)
      return (await response.json()) as unknown
    },
    catch: (error) => failed(error instanceof Error ? error.message : String(error))
  })

/**
 * Sign-in through the upstream OpenID Connect provider (authorization code with PKCE, this service
 * a confidential client): the user is the one whose e-mail address the provider says is verified.
 * `GET /oauth/login/oidc` sends the browser to the provider; its callback checks the state, redeems
 * the code, verifies the ID token (signature by the provider's JWKS, issuer, audience, nonce) and
 * signs the browser in as on the e-mail link.
 */
export const layer = HttpRouter.addAll(
  Effect.gen(function* () {
    const settings = yield* PublicOrigin
    const login = yield* OAuthLoginSettings
    const signIn = yield* SignIn
    const oidc = login.oidc
    if (oidc === undefined) return []
    const key = Redacted.value(login.key)

    const discovery = yield* Effect.cached(
      Effect.flatMap(fetchJson(`${oidc.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`), (json) =>
        Effect.mapError(decodeDiscovery(json), () => failed("the provider's discovery document is not usable"))
      )
    )
    const jwks = yield* Effect.cached(Effect.map(discovery, (found) => createRemoteJWKSet(new URL(found.jwks_uri))))
    const callbackOf = (origin: string) => `${origin}${oidcPaths.callback}`

    const start = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const origin = originOf(settings, request)
        if (origin === undefined) return errorPage(untrustedHost)
        const returnTo = safeReturnTo(
          new URL(request.url, "http://localhost").searchParams.get("return_to") ?? undefined
        )
        if (returnTo === undefined) return errorPage("The sign-in request is incomplete.")
        const provider = yield* discovery
        const pending = { state: random(), nonce: random(), verifier: random(), returnTo }
        const target = new URL(provider.authorization_endpoint)
        for (const [name, value] of Object.entries({
          response_type: "code",
          client_id: oidc.clientId,
          redirect_uri: callbackOf(origin),
          scope: "openid email",
          state: pending.state,
          nonce: pending.nonce,
          code_challenge: createHash("sha256").update(pending.verifier).digest("base64url"),
          code_challenge_method: "S256"
        })) {
          target.searchParams.set(name, value)
        }
        const now = yield* Clock.currentTimeMillis
        const cookie = signValue(key, "oidc", JSON.stringify(pending), now + linkLifetimeMs)
        return HttpServerResponse.redirect(target, { status: 303, headers: { "cache-control": "no-store" } }).pipe(
          HttpServerResponse.setCookiesUnsafe([sessionPageCookie(pendingCookie, cookie, linkLifetimeMs / 1000, origin)])
        )
      })

    const callback = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const origin = originOf(settings, request)
        if (origin === undefined) return errorPage(untrustedHost)
        const now = yield* Clock.currentTimeMillis
        const search = new URL(request.url, "http://localhost").searchParams
        const cookie = request.cookies[cookieName(pendingCookie, origin)]
        const pending = Option.getOrUndefined(
          decodePending(cookie === undefined ? "" : (verifyValue(key, "oidc", cookie, now) ?? ""))
        )
        if (pending === undefined || search.get("state") !== pending.state) {
          return errorPage("This sign-in has expired or was not started here: ask the agent to start again.")
        }
        const code = search.get("code")
        if (code === null) return errorPage(`The identity provider refused: ${search.get("error") ?? "no code"}.`)
        const provider = yield* discovery
        const tokens = yield* Effect.flatMap(
          fetchJson(provider.token_endpoint, {
            method: "POST",
            headers: {
              "content-type": "application/x-www-form-urlencoded",
              authorization: basicOf(oidc)
            },
            body: new URLSearchParams({
              grant_type: "authorization_code",
              code,
              redirect_uri: callbackOf(origin),
              code_verifier: pending.verifier
            }).toString()
          }),
          (json) => Effect.mapError(decodeTokens(json), () => failed("the provider sent no ID token"))
        )
        const keys = yield* jwks
        const verified = yield* Effect.tryPromise({
          try: () => jwtVerify(tokens.id_token, keys, { issuer: provider.issuer, audience: oidc.clientId }),
          catch: (error) => failed(`the ID token is not valid: ${error instanceof Error ? error.message : "unknown"}`)
        })
        const claims = verified.payload
        if (claims.nonce !== pending.nonce) return yield* failed("the ID token's nonce is not this sign-in's")
        if (claims.email_verified !== true || typeof claims.email !== "string") {
          return yield* failed("the provider did not vouch for an e-mail address")
        }
        const user = yield* signIn.accountByEmail(claims.email)
        if (Option.isNone(user)) {
          return errorPage(`No Margin account has the address ${claims.email}.`)
        }
        return HttpServerResponse.redirect(pending.returnTo, {
          status: 303,
          headers: { "cache-control": "no-store" }
        }).pipe(HttpServerResponse.setCookiesUnsafe([signInCookie(login, user.value.id, origin, now)]))
      })

    const shown = <E extends { readonly _tag: string }>(
      effect: Effect.Effect<HttpServerResponse.HttpServerResponse, E>
    ) =>
      Effect.catch(effect, (error) =>
        Effect.as(
          Effect.logWarning(
            "OIDC sign-in failed",
            error._tag === "OidcFailed" && "reason" in error ? error.reason : error._tag
          ),
          errorPage("Signing in with the identity provider failed: ask the agent to start again.")
        )
      )

    return [
      HttpRouter.route("GET", oidcPaths.start, (request: HttpServerRequest.HttpServerRequest) => shown(start(request))),
      HttpRouter.route("GET", oidcPaths.callback, (request: HttpServerRequest.HttpServerRequest) =>
        shown(callback(request))
      )
    ]
  })
)

/** client_secret_basic (RFC 6749 section 2.3.1): both parts form-encoded, then base64. */
const basicOf = (oidc: OidcSettings): string =>
  `Basic ${Buffer.from(
    `${encodeURIComponent(oidc.clientId)}:${encodeURIComponent(Redacted.value(oidc.clientSecret))}`
  ).toString("base64")}`
