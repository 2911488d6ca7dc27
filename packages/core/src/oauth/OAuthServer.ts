import { Clock, Context, Effect, Layer, Option, Result } from "effect"
import { MembershipRepository } from "../access/MembershipRepository.ts"
import { type Scope, scopes } from "../access/Scope.ts"
import { UserRepository } from "../access/UserRepository.ts"
import type { RepositoryError } from "../kernel/Errors.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { GrantId, OAuthClientId, type UserId, type WorkspaceId } from "../kernel/Ids.ts"
import { planLimits } from "../workspaces/Plan.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import {
  type AuthorizationCode,
  type CodeRedemption,
  type CodeRefusal,
  codeLifetimeMs,
  decideRedemption,
  replayIsProven
} from "./AuthorizationCode.ts"
import { AuthorizationCodeRepository } from "./AuthorizationCodeRepository.ts"
import { ClientMetadataDocuments } from "./ClientMetadataDocuments.ts"
import { type OAuthClient, redirectUriAllowed, type TokenEndpointAuthMethod } from "./OAuthClient.ts"
import { OAuthClientRepository } from "./OAuthClientRepository.ts"
import { OAuthRefused } from "./OAuthErrors.ts"
import { grantLive, grantTouchIntervalMs, maxLiveGrantsPerUser, type OAuthGrant } from "./OAuthGrant.ts"
import { OAuthGrantRepository } from "./OAuthGrantRepository.ts"
import { redirectUriAcceptable } from "./OAuthRedirectUri.ts"
import { narrowScopes, scopeParameter } from "./OAuthScopes.ts"
import { OAuthSecrets } from "./OAuthSecrets.ts"
import { accessTokenLifetimeMs, accessTokenState, decideRefresh, refreshTokenLifetimeMs } from "./OAuthToken.ts"
import { isS256Challenge, pkceMatches } from "./Pkce.ts"

/** Prefixes of what the server hands out: readable in a log line, told apart from `pck_` tokens. */
export const secretPrefixes = {
  code: "mac_",
  access: "mat_",
  refresh: "mrt_",
  clientSecret: "mcs_"
} as const

/** What RFC 7591 registration asks for, already decoded. */
export interface ClientRegistration {
  readonly name: string
  readonly redirectUris: ReadonlyArray<string>
  readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod
}

/** An authorization request (OAuth 2.1 section 4.1.1) whose client and redirect URI were checked. */
export interface AuthorizationRequest {
  readonly client: OAuthClient
  readonly redirectUri: string
  readonly codeChallenge: string
  readonly resource: string
  /** What the client asked for: the consent page offers these and may narrow them. */
  readonly scopes: ReadonlyArray<Scope>
}

/** The token endpoint's answer (OAuth 2.1 section 3.2.3). */
export interface TokenResponse {
  readonly access_token: string
  readonly token_type: "Bearer"
  readonly expires_in: number
  readonly refresh_token: string
  readonly scope: string
}

/** How a client authenticates at the token and revocation endpoints. */
export interface ClientCredentials {
  readonly clientId: string
  readonly clientSecret: string | undefined
}

export type OAuthError = OAuthRefused | RepositoryError

const refused = (error: OAuthRefused["error"], description: string) => new OAuthRefused({ error, description })

/**
 * The OAuth 2.1 authorization server of the MCP resource: registration, the authorization request,
 * consent, the token endpoint (code and refresh grants), revocation, and the check of an access
 * token on each MCP request. Front doors decode the HTTP forms and render the answers.
 */
export class OAuthServer extends Context.Service<
  OAuthServer,
  {
    readonly register: (
      registration: ClientRegistration
    ) => Effect.Effect<{ readonly client: OAuthClient; readonly secret: string | null }, OAuthError>
    /** The client and redirect URI: until they are known good, errors are shown, never redirected to. */
    readonly authorizationClient: (
      clientId: string,
      redirectUri: string | undefined
    ) => Effect.Effect<OAuthClient, OAuthError>
    /** The rest of the request; its errors go back to the (now trusted) redirect URI. */
    readonly authorizationRequest: (input: {
      readonly client: OAuthClient
      readonly redirectUri: string
      readonly responseType: string | undefined
      readonly codeChallenge: string | undefined
      readonly codeChallengeMethod: string | undefined
      readonly resource: string | undefined
      readonly scope: string | undefined
      /** This server's MCP resource: the only `resource` it issues tokens for. */
      readonly expectedResource: string
    }) => Effect.Effect<AuthorizationRequest, OAuthRefused>
    /** The user consented: records the grant (one per user, client, workspace) and issues a code. */
    readonly consent: (input: {
      readonly request: AuthorizationRequest
      readonly userId: UserId
      readonly workspaceId: WorkspaceId
      readonly scopes: ReadonlyArray<Scope>
    }) => Effect.Effect<{ readonly code: string; readonly grant: OAuthGrant }, OAuthError>
    readonly exchangeCode: (input: {
      readonly client: ClientCredentials
      readonly code: string
      readonly redirectUri: string | undefined
      readonly codeVerifier: string | undefined
      readonly resource: string | undefined
    }) => Effect.Effect<TokenResponse, OAuthError>
    readonly refresh: (input: {
      readonly client: ClientCredentials
      readonly refreshToken: string
      readonly scope: string | undefined
      readonly resource: string | undefined
    }) => Effect.Effect<TokenResponse, OAuthError>
    /** RFC 7009: unknown tokens and other clients' tokens are answered as revoked too (nothing leaks). */
    readonly revoke: (input: {
      readonly client: ClientCredentials
      readonly token: string
    }) => Effect.Effect<void, OAuthError>
    /** The live grant of an access token presented to the resource, or None (401 alike). */
    readonly grantOfAccessToken: (accessToken: string) => Effect.Effect<Option.Option<OAuthGrant>, RepositoryError>
    readonly listGrants: (filter: {
      readonly userId?: UserId
    }) => Effect.Effect<ReadonlyArray<OAuthGrant>, RepositoryError>
    readonly revokeGrant: (id: GrantId) => Effect.Effect<boolean, RepositoryError>
  }
>()("margin/core/OAuthServer") {
  static readonly layer = Layer.effect(
    OAuthServer,
    Effect.gen(function* () {
      const clients = yield* OAuthClientRepository
      const codes = yield* AuthorizationCodeRepository
      const grants = yield* OAuthGrantRepository
      const secrets = yield* OAuthSecrets
      const ids = yield* IdGenerator
      const memberships = yield* MembershipRepository
      const workspaces = yield* WorkspaceRepository
      const users = yield* UserRepository
      const documents = yield* ClientMetadataDocuments

      const knownClient = Effect.fnUntraced(function* (clientId: string) {
        const found = yield* clients.get(OAuthClientId.make(clientId))
        if (Option.isNone(found)) return yield* refused("invalid_client", "Unknown client_id.")
        return found.value
      })

      /**
       * A client whose id is a URL: the metadata document at that URL, read now (so a changed
       * document applies to the next sign-in) and saved for the token endpoint. It must name
       * itself, list acceptable redirect URIs, and be a public client (a public document holds no secret).
       */
      const documentClient = Effect.fnUntraced(function* (url: string) {
        const document = yield* documents
          .fetch(url)
          .pipe(
            Effect.mapError((unavailable) =>
              refused("invalid_client", `The client metadata document cannot be used: ${unavailable.reason}.`)
            )
          )
        if (document.clientId !== url) {
          return yield* refused("invalid_client", "The metadata document's client_id is not its own URL.")
        }
        const redirectUris = document.redirectUris
        if (
          !Array.isArray(redirectUris) ||
          redirectUris.length === 0 ||
          redirectUris.length > 10 ||
          !redirectUris.every((uri): uri is string => typeof uri === "string" && redirectUriAcceptable(uri))
        ) {
          return yield* refused("invalid_client", "The metadata document's redirect_uris are missing or not allowed.")
        }
        if (document.tokenEndpointAuthMethod !== undefined && document.tokenEndpointAuthMethod !== "none") {
          return yield* refused(
            "invalid_client",
            "A metadata document client is public: token_endpoint_auth_method none."
          )
        }
        const name =
          typeof document.clientName === "string" && document.clientName !== ""
            ? document.clientName.slice(0, 200)
            : url
        const client: OAuthClient = {
          id: OAuthClientId.make(url),
          name,
          redirectUris,
          metadataUrl: url,
          tokenEndpointAuthMethod: "none",
          createdAt: yield* Clock.currentTimeMillis
        }
        yield* clients.save(client, null)
        return client
      })

      // Public clients (`none`) prove themselves with PKCE; a confidential one also with its secret.
      const authenticateClient = Effect.fnUntraced(function* (credentials: ClientCredentials) {
        const { client, secretHash } = yield* knownClient(credentials.clientId)
        if (client.tokenEndpointAuthMethod === "none") return client
        if (credentials.clientSecret === undefined || secretHash !== secrets.hash(credentials.clientSecret)) {
          return yield* refused("invalid_client", "Client authentication failed.")
        }
        return client
      })

      const issueTokens = Effect.fnUntraced(function* (grant: OAuthGrant, now: number) {
        const access = yield* secrets.issue(secretPrefixes.access)
        const refresh = yield* secrets.issue(secretPrefixes.refresh)
        const token = { grantId: grant.id, createdAt: now, usedAt: null, revokedAt: null }
        yield* grants.insertToken(access.hash, { ...token, kind: "access", expiresAt: now + accessTokenLifetimeMs })
        yield* grants.insertToken(refresh.hash, { ...token, kind: "refresh", expiresAt: now + refreshTokenLifetimeMs })
        const response: TokenResponse = {
          access_token: access.secret,
          token_type: "Bearer",
          expires_in: accessTokenLifetimeMs / 1000,
          refresh_token: refresh.secret,
          scope: scopeParameter(grant.scopes)
        }
        return response
      })

      /**
       * A redemption refused. A replay revokes the grant only when proven (`replayIsProven`: the
       * replaying request had the client, redirect URI, resource and verifier right), since whoever
       * replays a code and its verifier holds a code that was already exchanged (OAuth 2.1 4.1.3).
       */
      const refusedRedemption = Effect.fnUntraced(function* (
        decision: CodeRefusal,
        code: AuthorizationCode,
        redemption: CodeRedemption,
        now: number
      ) {
        switch (decision) {
          case "replayed":
            if (replayIsProven(code, redemption, now)) {
              yield* grants.revoke(code.grantId, now)
              return yield* refused("invalid_grant", "The authorization code was already used; its grant is revoked.")
            }
            return yield* refused("invalid_grant", "The authorization code was already used.")
          case "resource_mismatch":
            return yield* refused("invalid_target", "resource differs from the authorization request's.")
          default:
            return yield* refused("invalid_grant", codeRefusalDescriptions[decision])
        }
      })

      const liveGrant = Effect.fnUntraced(function* (id: GrantId, now: number) {
        const grant = yield* grants.get(id)
        if (Option.isNone(grant) || !grantLive(grant.value, now)) {
          return yield* refused("invalid_grant", "The grant was revoked.")
        }
        return grant.value
      })

      return OAuthServer.of({
        register: Effect.fn("OAuthServer.register")(function* (registration) {
          if (registration.redirectUris.length === 0) {
            return yield* refused("invalid_redirect_uri", "redirect_uris must name at least one URI.")
          }
          const unacceptable = registration.redirectUris.find((uri) => !redirectUriAcceptable(uri))
          if (unacceptable !== undefined) {
            return yield* refused(
              "invalid_redirect_uri",
              `Redirect URI not allowed: ${unacceptable} (https, http on loopback, or a private-use scheme; no fragment).`
            )
          }
          const now = yield* Clock.currentTimeMillis
          const client: OAuthClient = {
            id: OAuthClientId.make(yield* ids.next("oauthClient")),
            name: registration.name,
            redirectUris: registration.redirectUris,
            metadataUrl: null,
            tokenEndpointAuthMethod: registration.tokenEndpointAuthMethod,
            createdAt: now
          }
          const secret =
            registration.tokenEndpointAuthMethod === "none" ? null : yield* secrets.issue(secretPrefixes.clientSecret)
          yield* clients.save(client, secret === null ? null : secret.hash)
          return { client, secret: secret === null ? null : secret.secret }
        }),

        authorizationClient: Effect.fn("OAuthServer.authorizationClient")(function* (clientId, redirectUri) {
          const client = isMetadataUrl(clientId)
            ? yield* documentClient(clientId)
            : (yield* knownClient(clientId)).client
          if (redirectUri === undefined || !redirectUriAllowed(client, redirectUri)) {
            return yield* refused("invalid_request", "redirect_uri is not one the client registered.")
          }
          return client
        }),

        authorizationRequest: Effect.fn("OAuthServer.authorizationRequest")(function* (input) {
          if (input.responseType !== "code") {
            return yield* refused("invalid_request", "response_type must be code.")
          }
          if (input.codeChallengeMethod !== "S256" || input.codeChallenge === undefined) {
            return yield* refused(
              "invalid_request",
              "PKCE is required: code_challenge with code_challenge_method S256."
            )
          }
          if (!isS256Challenge(input.codeChallenge)) {
            return yield* refused("invalid_request", "code_challenge is not an S256 challenge.")
          }
          if (input.resource === undefined) {
            return yield* refused("invalid_target", `resource is required: ${input.expectedResource}`)
          }
          if (input.resource !== input.expectedResource) {
            return yield* refused("invalid_target", `This server issues tokens only for ${input.expectedResource}.`)
          }
          const asked = narrowScopes(input.scope, scopes)
          if (Result.isFailure(asked)) {
            return yield* refused("invalid_scope", `Unknown scope: ${asked.failure.scope}`)
          }
          return {
            client: input.client,
            redirectUri: input.redirectUri,
            codeChallenge: input.codeChallenge,
            resource: input.resource,
            scopes: asked.success
          }
        }),

        consent: Effect.fn("OAuthServer.consent")(function* (input) {
          const now = yield* Clock.currentTimeMillis
          const user = yield* users.get(input.userId)
          if (Option.isNone(user) || user.value.deletedAt !== null) {
            return yield* refused("access_denied", "The user cannot sign in.")
          }
          const membership = yield* memberships.get(input.workspaceId, input.userId)
          const workspace = yield* workspaces.get(input.workspaceId)
          if (Option.isNone(membership) || Option.isNone(workspace)) {
            return yield* refused("access_denied", "The user is not a member of that workspace.")
          }
          if (!planLimits[workspace.value.plan].mcp) {
            return yield* refused(
              "access_denied",
              `The MCP server needs a Max or Enterprise plan; the workspace is on ${workspace.value.plan}.`
            )
          }
          // An empty choice would read as "everything asked for": refused instead.
          const chosen = narrowScopes(scopeParameter(input.scopes), input.request.scopes)
          if (input.scopes.length === 0 || Result.isFailure(chosen)) {
            return yield* refused("invalid_scope", "Choose at least one of the scopes the client asked for.")
          }
          const grant = yield* grants.consent({
            id: GrantId.make(yield* ids.next("grant")),
            userId: input.userId,
            clientId: input.request.client.id,
            workspaceId: input.workspaceId,
            scopes: chosen.success,
            resource: input.request.resource,
            createdAt: now,
            revokedAt: null,
            lastUsedAt: null
          })
          // At most maxLiveGrantsPerUser live grants a user: the oldest beyond it end (list is newest first).
          const live = (yield* grants.list({ userId: input.userId })).filter((held) => grantLive(held, now))
          yield* Effect.forEach(live.slice(maxLiveGrantsPerUser), (old) => grants.revoke(old.id, now), {
            discard: true
          })
          const code = yield* secrets.issue(secretPrefixes.code)
          yield* codes.insert(code.hash, {
            grantId: grant.id,
            clientId: input.request.client.id,
            redirectUri: input.request.redirectUri,
            codeChallenge: input.request.codeChallenge,
            scopes: grant.scopes,
            resource: grant.resource,
            createdAt: now,
            expiresAt: now + codeLifetimeMs,
            usedAt: null
          })
          return { code: code.secret, grant }
        }),

        exchangeCode: Effect.fn("OAuthServer.exchangeCode")(function* (input) {
          const client = yield* authenticateClient(input.client)
          const now = yield* Clock.currentTimeMillis
          const hash = secrets.hash(input.code)
          const stored = yield* codes.find(hash)
          if (Option.isNone(stored)) return yield* refused("invalid_grant", "Unknown authorization code.")
          const redemption = {
            clientId: client.id,
            redirectUri: input.redirectUri,
            resource: input.resource,
            pkceVerified:
              input.codeVerifier !== undefined &&
              pkceMatches(stored.value.codeChallenge, input.codeVerifier, secrets.s256)
          }
          // Checked before the code is spent: a failed redemption (wrong verifier, another client)
          // leaves it to the client that holds the verifier.
          const checked = decideRedemption(stored.value, redemption, now)
          if (checked !== "redeemable") return yield* refusedRedemption(checked, stored.value, redemption, now)
          // Spent atomically: of concurrent redemptions exactly one finds it unused.
          const found = yield* codes.consume(hash, now)
          if (Option.isNone(found)) return yield* refused("invalid_grant", "Unknown authorization code.")
          const decision = decideRedemption(found.value, redemption, now)
          if (decision !== "redeemable") return yield* refusedRedemption(decision, found.value, redemption, now)
          return yield* issueTokens(yield* liveGrant(found.value.grantId, now), now)
        }),

        refresh: Effect.fn("OAuthServer.refresh")(function* (input) {
          const client = yield* authenticateClient(input.client)
          const now = yield* Clock.currentTimeMillis
          const hash = secrets.hash(input.refreshToken)
          const stored = yield* grants.findToken(hash)
          if (Option.isNone(stored)) return yield* refused("invalid_grant", "Unknown refresh token.")
          const grant = yield* grants.get(stored.value.grantId)
          if (Option.isNone(grant) || grant.value.clientId !== client.id) {
            return yield* refused("invalid_grant", "Unknown refresh token.")
          }
          // The request's own mistakes are refused before the token is spent, so that the correct
          // retry still works; a token already used goes on to reuse detection whatever else it asks.
          if (decideRefresh(stored.value, grant.value, now) === "rotate") {
            if (input.resource !== undefined && input.resource !== grant.value.resource) {
              return yield* refused("invalid_target", "resource differs from the grant's.")
            }
            // Tokens carry their grant's scopes: a refresh may restate them, not widen or change them.
            const restated = narrowScopes(input.scope, grant.value.scopes)
            if (Result.isFailure(restated)) {
              return yield* refused("invalid_scope", `Not granted: ${restated.failure.scope}`)
            }
          }
          const found = yield* grants.useToken(hash, now)
          if (Option.isNone(found)) return yield* refused("invalid_grant", "Unknown refresh token.")
          switch (decideRefresh(found.value, grant.value, now)) {
            case "rotate":
              return yield* issueTokens(grant.value, now)
            case "reused":
              // Two parties hold this refresh token: end the grant, the legitimate client signs in again.
              yield* grants.revoke(grant.value.id, now)
              return yield* refused("invalid_grant", "The refresh token was already used; its grant is revoked.")
            case "expired":
              return yield* refused("invalid_grant", "The refresh token expired.")
            case "revoked":
              return yield* refused("invalid_grant", "The refresh token or its grant was revoked.")
          }
        }),

        revoke: Effect.fn("OAuthServer.revoke")(function* (input) {
          const client = yield* authenticateClient(input.client)
          const now = yield* Clock.currentTimeMillis
          const hash = secrets.hash(input.token)
          const token = yield* grants.findToken(hash)
          if (Option.isNone(token)) return
          const grant = yield* grants.get(token.value.grantId)
          if (Option.isNone(grant) || grant.value.clientId !== client.id) return
          // RFC 7009 section 2.1: revoking a refresh token ends the grant's access tokens too.
          if (token.value.kind === "refresh") yield* grants.revoke(grant.value.id, now)
          else yield* grants.revokeToken(hash, now)
        }),

        grantOfAccessToken: Effect.fn("OAuthServer.grantOfAccessToken")(function* (accessToken) {
          const token = yield* grants.findToken(secrets.hash(accessToken))
          if (Option.isNone(token) || token.value.kind !== "access") return Option.none()
          const grant = yield* grants.get(token.value.grantId)
          if (Option.isNone(grant)) return Option.none()
          const now = yield* Clock.currentTimeMillis
          if (accessTokenState(token.value, grant.value, now) !== "usable") return Option.none()
          // The connected apps page shows the last use; a failed write must not refuse the call.
          const last = grant.value.lastUsedAt
          if (last === null || now - last >= grantTouchIntervalMs) {
            yield* Effect.ignore(grants.touch(grant.value.id, now))
          }
          return grant
        }),

        listGrants: (filter) => grants.list(filter),

        revokeGrant: Effect.fn("OAuthServer.revokeGrant")(function* (id) {
          return yield* grants.revoke(id, yield* Clock.currentTimeMillis)
        })
      })
    })
  )
}

/** A client_id that is a URL names a client ID metadata document; registered ids are `mcl_…`. */
const isMetadataUrl = (clientId: string): boolean => /^https?:\/\//i.test(clientId)

const codeRefusalDescriptions = {
  expired: "The authorization code expired.",
  client_mismatch: "The authorization code was issued to another client.",
  redirect_mismatch: "redirect_uri differs from the authorization request's.",
  pkce_mismatch: "code_verifier does not match the code_challenge."
} as const
