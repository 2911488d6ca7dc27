import type { IdentityKeyStore } from "@margin/core/access/IdentityKeyStore"
import type { RepositoryError } from "@margin/core/kernel/Errors"
import { UserId } from "@margin/core/kernel/Ids"
import type { FileSystem } from "effect"
import { Clock, Config, Context, Effect, Layer, Schema } from "effect"
import { errors, jwtVerify } from "jose"
import { type SessionKeyConfigError, type SessionVerificationKey, sessionVerificationKey } from "./SessionJwtKeys.ts"

/**
 * Session JWTs: the first-party apps' credential (docs/contract.md, "Who may call"). The identity provider signs
 * them with an asymmetric key; the service only verifies. `sub` is the user id, `exp` is
 * required, `iss` and `aud` must be ours. `alg: none`, symmetric algorithms (an HS256 token
 * "signed" with the public key: algorithm confusion) and anything not signed by the configured
 * key are refused.
 */

export const InvalidSessionReason = Schema.Literals([
  "malformed",
  "algorithm_not_allowed",
  "bad_signature",
  "unknown_key",
  "expired",
  "not_yet_valid",
  "wrong_issuer",
  "wrong_audience",
  "missing_claim",
  "key_unavailable"
])
export type InvalidSessionReason = typeof InvalidSessionReason.Type

/** The session JWT does not authenticate anyone. The REST door answers 401 for every reason. */
export class InvalidSession extends Schema.TaggedError<InvalidSession>()("InvalidSession", {
  reason: InvalidSessionReason
}) {}

/** Who may issue sessions for us, and to whom they are addressed. */
export interface SessionJwtSettings {
  readonly issuer: string
  readonly audience: string
}

export const defaultSessionIssuer = "margin-service-dev"
export const defaultSessionAudience = "margin-service"

/** SESSION_ISSUER and SESSION_AUDIENCE, with the development defaults. */
export const sessionJwtSettingsConfig: Config.Config<SessionJwtSettings> = Config.all({
  issuer: Config.NonEmptyString("SESSION_ISSUER").pipe(Config.withDefault(defaultSessionIssuer)),
  audience: Config.NonEmptyString("SESSION_AUDIENCE").pipe(Config.withDefault(defaultSessionAudience))
})

// Anything longer is not a session token of ours; refuse it before parsing.
const maxTokenLength = 8192

const reasonOf = (error: unknown): InvalidSessionReason => {
  if (error instanceof errors.JWTExpired) return "expired"
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "iss") return "wrong_issuer"
    if (error.claim === "aud") return "wrong_audience"
    if (error.claim === "nbf" || error.claim === "iat") return "not_yet_valid"
    return "missing_claim"
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return "algorithm_not_allowed"
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return "bad_signature"
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
    return "unknown_key"
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return "key_unavailable"
  return "malformed"
}

/**
 * A `sub` that can name a user: 1 to 128 characters, no control character (PostgreSQL text cannot
 * hold a NUL: looking one up would fail the database, a 503 where the caller is owed a 401) and no
 * lone surrogate (it has no UTF-8 form, so it could only match a user by accident).
 */
const isUserIdText = (sub: string): boolean => {
  if (sub.length === 0 || sub.length > 128 || !sub.isWellFormed()) return false
  for (let index = 0; index < sub.length; index++) {
    const code = sub.charCodeAt(index)
    if (code < 0x20 || code === 0x7f) return false
  }
  return true
}

/** Verifies one session JWT at `now` (epoch ms) and returns its user id. */
export const verifySessionJwt = (
  jwt: string,
  key: SessionVerificationKey,
  settings: SessionJwtSettings,
  now: number
): Effect.Effect<UserId, InvalidSession> =>
  jwt.length > maxTokenLength
    ? Effect.fail(new InvalidSession({ reason: "malformed" }))
    : Effect.tryPromise({
        try: () =>
          jwtVerify(jwt, key.key, {
            algorithms: [...key.algorithms],
            issuer: settings.issuer,
            audience: settings.audience,
            requiredClaims: ["exp", "sub"],
            currentDate: new Date(now)
          }),
        catch: (error) => new InvalidSession({ reason: reasonOf(error) })
      }).pipe(
        Effect.flatMap(({ payload }) =>
          typeof payload.sub === "string" && isUserIdText(payload.sub)
            ? Effect.succeed(UserId.make(payload.sub))
            : Effect.fail(new InvalidSession({ reason: "missing_claim" }))
        )
      )

/** Verifies session JWTs. The REST door resolves a session caller with it. */
export class SessionVerifier extends Context.Service<
  SessionVerifier,
  {
    readonly verify: (jwt: string) => Effect.Effect<UserId, InvalidSession>
  }
>()("margin/edge/SessionVerifier") {
  /** Verifies with a given key (tests, or a key resolved elsewhere). */
  static readonly fromKey = (key: SessionVerificationKey, settings: SessionJwtSettings): Layer.Layer<SessionVerifier> =>
    Layer.succeed(
      SessionVerifier,
      SessionVerifier.of({
        verify: Effect.fn("SessionVerifier.verify")(function* (jwt: string) {
          const now = yield* Clock.currentTimeMillis
          return yield* verifySessionJwt(jwt, key, settings, now)
        })
      })
    )

  /**
   * The configured key: SESSION_JWKS_FILE, SESSION_PUBLIC_KEY (PEM) or SESSION_JWKS_URL (one of
   * them); with none, the development identity key kept in the database (generated on first use).
   */
  static readonly layer: Layer.Layer<
    SessionVerifier,
    SessionKeyConfigError | RepositoryError | Config.ConfigError,
    IdentityKeyStore | FileSystem.FileSystem
  > = Layer.unwrap(
    Effect.gen(function* () {
      const settings = yield* sessionJwtSettingsConfig
      const key = yield* sessionVerificationKey
      return SessionVerifier.fromKey(key, settings)
    })
  )
}
