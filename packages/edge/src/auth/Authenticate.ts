import { type ApiToken, tokenState } from "@margin/core/access/ApiToken"
import type { Membership } from "@margin/core/access/Membership"
import { MembershipRepository } from "@margin/core/access/MembershipRepository"
import { type BudgetDecision, RateBudget } from "@margin/core/access/RateBudget"
import { TokenRepository } from "@margin/core/access/TokenRepository"
import { UserRepository } from "@margin/core/access/UserRepository"
import type { RepositoryError } from "@margin/core/kernel/Errors"
import { OAuthServer, secretPrefixes } from "@margin/core/oauth/OAuthServer"
import { sessionScopes } from "@margin/core/operations/OperationCatalogue"
import { Context, Effect, Layer, Option } from "effect"
import { RequestLog } from "../telemetry/RequestLog.ts"
import { InsufficientScope, RateLimited, TokenUnusable, Unauthorized, WorkspaceForbidden } from "../wire/EdgeErrors.ts"
import type { CallerShape } from "./Caller.ts"
import type { RouteAccessShape } from "./RouteAccess.ts"
import { SessionVerifier } from "./SessionJwt.ts"
import { hashTokenSecret, isTokenSecret } from "./TokenSecret.ts"

/** The raw request headers authentication reads. */
export interface Credentials {
  readonly authorization: string | undefined
  readonly workspaceHeader: string | undefined
}

export type IdentificationError = Unauthorized | RateLimited | WorkspaceForbidden | RepositoryError

export type AuthorizationError = InsufficientScope | TokenUnusable | RepositoryError

export type AuthenticationError = IdentificationError | AuthorizationError

/**
 * `token:<id>`, `user:<id>`, `grant:<id>`: the rate budget a request counts against, shared by REST
 * and MCP. Each OAuth grant has its own, apart from its user's tokens and sessions (spec 8.2).
 */
export const budgetKey = (caller: {
  readonly tokenId: string | null
  readonly userId: string
  readonly grantId?: string
}): string =>
  caller.grantId !== undefined
    ? `grant:${caller.grantId}`
    : caller.tokenId === null
      ? `user:${caller.userId}`
      : `token:${caller.tokenId}`

/** How an OAuth access token is told from an API token and a session JWT. */
const isOAuthAccessToken = (credential: string): boolean => credential.startsWith(secretPrefixes.access)

/** last_used_at is written at most this often per token, not on every request. */
const touchIntervalMs = 60_000

const bearerPattern = /^Bearer +(\S+) *$/i

/**
 * Resolves the caller of one request, in the contract's order (docs/contract.md): credential (401),
 * rate budget (429, counted for every authenticated request), workspace (403), scope (403),
 * token_unusable (403, mutations). The role rule comes later, after the body is validated: it is
 * the use cases' (core's `Recommendations.approve` and `reject`, on the caller's `role`).
 */
export class Authenticate extends Context.Service<
  Authenticate,
  {
    readonly authenticate: (
      credentials: Credentials,
      access: RouteAccessShape
    ) => Effect.Effect<CallerShape, AuthenticationError>
    /**
     * The first half of `authenticate`, for front doors that learn the operation only later
     * (MCP: one HTTP request, then a tool): credential (401), rate budget (429), workspace (403).
     * `sessions: false` refuses session JWTs (401 session_not_allowed). OAuth access tokens are
     * accepted only when `oauthResource` names the resource being called (the MCP endpoint's URL),
     * and only if they were issued for it (RFC 8707); REST passes none (401 oauth_not_allowed).
     */
    readonly identify: (
      credentials: Credentials,
      options: { readonly sessions: boolean; readonly oauthResource?: string }
    ) => Effect.Effect<CallerShape, IdentificationError>
    /** The second half: scope (403), then token_unusable (403) when the operation mutates. */
    readonly authorize: (caller: CallerShape, access: RouteAccessShape) => Effect.Effect<void, AuthorizationError>
  }
>()("margin/edge/Authenticate") {
  static readonly layer = Layer.effect(
    Authenticate,
    Effect.gen(function* () {
      const tokens = yield* TokenRepository
      const users = yield* UserRepository
      const memberships = yield* MembershipRepository
      const budget = yield* RateBudget
      const sessions = yield* SessionVerifier
      const oauth = yield* OAuthServer

      // Read in the generators rather than through a flatMap of its own: a step less per request.
      const refusal = (decision: BudgetDecision): RateLimited | undefined =>
        decision._tag === "Allowed" ? undefined : new RateLimited({ retryAfterSeconds: decision.retryAfterSeconds })

      const touchDue = (token: ApiToken, now: number): boolean =>
        token.lastUsedAt === null || now - token.lastUsedAt >= touchIntervalMs

      const touch = (token: ApiToken, now: number): Effect.Effect<void> =>
        tokens
          .touch(token.id, now)
          .pipe(Effect.catch((error) => Effect.logWarning("token last_used_at not recorded", error.message)))

      const fromToken = Effect.fnUntraced(function* (secret: string, workspaceHeader: string | undefined, now: number) {
        const found = yield* tokens.findBySecretHash(hashTokenSecret(secret))
        if (Option.isNone(found)) return yield* new Unauthorized({ reason: "unknown" })
        const token = found.value
        // Named in the request's log line from here on, refused or not (a revoked token still in use shows).
        const key = budgetKey({ tokenId: token.id, userId: token.issuedBy })
        yield* RequestLog.note(key, token.workspaceId)
        const state = tokenState(token, now)
        if (state !== "usable") return yield* new Unauthorized({ reason: state })
        const refused = refusal(yield* budget.consume(key, now))
        if (refused !== undefined) return yield* refused
        if (workspaceHeader !== undefined && workspaceHeader !== token.workspaceId) {
          return yield* new WorkspaceForbidden({ reason: "token_bound_elsewhere" })
        }
        const membership = yield* memberships.get(token.workspaceId, token.issuedBy)
        // Only when due (at most once a minute per token): a yield is a step of the run loop even when idle.
        if (touchDue(token, now)) yield* touch(token, now)
        const caller: CallerShape = {
          workspaceId: token.workspaceId,
          credential: "token",
          tokenId: token.id,
          userId: token.issuedBy,
          scopes: token.scopes,
          role: Option.isSome(membership) ? membership.value.role : null
        }
        return caller
      })

      const fromGrant = Effect.fnUntraced(function* (
        accessToken: string,
        workspaceHeader: string | undefined,
        resource: string | undefined,
        now: number
      ) {
        if (resource === undefined) return yield* new Unauthorized({ reason: "oauth_not_allowed" })
        const found = yield* oauth.grantOfAccessToken(accessToken)
        if (Option.isNone(found) || found.value.resource !== resource) {
          return yield* new Unauthorized({ reason: "oauth_token_invalid" })
        }
        const grant = found.value
        const key = budgetKey({ tokenId: null, userId: grant.userId, grantId: grant.id })
        yield* RequestLog.note(key, grant.workspaceId)
        const refused = refusal(yield* budget.consume(key, now))
        if (refused !== undefined) return yield* refused
        if (workspaceHeader !== undefined && workspaceHeader !== grant.workspaceId) {
          return yield* new WorkspaceForbidden({ reason: "token_bound_elsewhere" })
        }
        // The role as it is now, as for tokens: a grant does not freeze the role it was given under.
        const membership = yield* memberships.get(grant.workspaceId, grant.userId)
        const caller: CallerShape = {
          workspaceId: grant.workspaceId,
          credential: "grant",
          tokenId: null,
          grantId: grant.id,
          userId: grant.userId,
          scopes: grant.scopes,
          role: Option.isSome(membership) ? membership.value.role : null
        }
        return caller
      })

      const chooseWorkspace = (
        all: ReadonlyArray<Membership>,
        workspaceHeader: string | undefined
      ): Effect.Effect<Membership, WorkspaceForbidden> => {
        if (workspaceHeader === undefined) {
          const only = all.length === 1 ? all[0] : undefined
          return only !== undefined
            ? Effect.succeed(only)
            : Effect.fail(new WorkspaceForbidden({ reason: all.length === 0 ? "not_a_member" : "header_required" }))
        }
        const named = all.find((membership) => membership.workspaceId === workspaceHeader)
        return named !== undefined
          ? Effect.succeed(named)
          : Effect.fail(new WorkspaceForbidden({ reason: "not_a_member" }))
      }

      const fromSession = Effect.fnUntraced(function* (
        jwt: string,
        workspaceHeader: string | undefined,
        sessionsAllowed: boolean,
        now: number
      ) {
        const userId = yield* sessions
          .verify(jwt)
          .pipe(Effect.catchTag("InvalidSession", () => Effect.fail(new Unauthorized({ reason: "invalid_session" }))))
        const user = yield* users.get(userId)
        if (Option.isNone(user) || user.value.deletedAt !== null) {
          return yield* new Unauthorized({ reason: "invalid_session" })
        }
        if (!sessionsAllowed) return yield* new Unauthorized({ reason: "session_not_allowed" })
        const key = budgetKey({ tokenId: null, userId: user.value.id })
        yield* RequestLog.note(key, null)
        const refused = refusal(yield* budget.consume(key, now))
        if (refused !== undefined) return yield* refused
        const membership = yield* chooseWorkspace(yield* memberships.listForUser(user.value.id), workspaceHeader)
        yield* RequestLog.note(key, membership.workspaceId)
        const caller: CallerShape = {
          workspaceId: membership.workspaceId,
          credential: "session",
          tokenId: null,
          userId: user.value.id,
          scopes: sessionScopes,
          role: membership.role
        }
        return caller
      })

      // Untraced bodies: `authenticate` runs both halves under its one span (a span per half on
      // every REST request cost more than the half's own work); MCP calls each half traced.
      // Plain functions rather than generators where they only branch: each generator call is a few
      // steps of the run loop, and these run on every request.
      const identifyUntraced = (
        credentials: Credentials,
        options: { readonly sessions: boolean; readonly oauthResource?: string }
      ): Effect.Effect<CallerShape, IdentificationError> => {
        if (credentials.authorization === undefined || credentials.authorization.trim() === "") {
          return Effect.fail(new Unauthorized({ reason: "missing" }))
        }
        const credential = bearerPattern.exec(credentials.authorization)?.[1]
        if (credential === undefined) return Effect.fail(new Unauthorized({ reason: "malformed" }))
        const workspaceHeader = credentials.workspaceHeader?.trim() || undefined
        // One step for the clock (`Clock.currentTimeMillis` and a flatMap are three).
        return Effect.clockWith((clock) => {
          const now = clock.currentTimeMillisUnsafe()
          return isTokenSecret(credential)
            ? fromToken(credential, workspaceHeader, now)
            : isOAuthAccessToken(credential)
              ? fromGrant(credential, workspaceHeader, options.oauthResource, now)
              : fromSession(credential, workspaceHeader, options.sessions, now)
        })
      }

      // A session's user was checked when it was identified; a token's issuer or a grant's user may be gone since.
      // Both answer the caller, so that `authenticate` needs no step of its own to return it.
      const issuerUsable = (caller: CallerShape): Effect.Effect<CallerShape, TokenUnusable | RepositoryError> =>
        Effect.flatMap(users.get(caller.userId), (issuer) =>
          Option.isNone(issuer) || issuer.value.deletedAt !== null
            ? Effect.fail(new TokenUnusable())
            : Effect.succeed(caller)
        )

      const authorized = (
        caller: CallerShape,
        access: RouteAccessShape
      ): Effect.Effect<CallerShape, AuthorizationError> =>
        !caller.scopes.includes(access.scope)
          ? Effect.fail(new InsufficientScope({ required: access.scope }))
          : access.mutation && caller.credential !== "session"
            ? issuerUsable(caller)
            : Effect.succeed(caller)

      const authenticateUntraced = (
        credentials: Credentials,
        access: RouteAccessShape
      ): Effect.Effect<CallerShape, AuthenticationError> =>
        Effect.flatMap(identifyUntraced(credentials, { sessions: access.session }), (caller) =>
          authorized(caller, access)
        )

      return Authenticate.of({
        authenticate: Effect.fn("Authenticate.authenticate")(function* (credentials, access) {
          return yield* authenticateUntraced(credentials, access)
        }),
        identify: Effect.fn("Authenticate.identify")(function* (credentials, options) {
          return yield* identifyUntraced(credentials, options)
        }),
        authorize: Effect.fn("Authenticate.authorize")(function* (caller, access) {
          yield* authorized(caller, access)
        })
      })
    })
  )
}
