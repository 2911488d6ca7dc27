import type { IdentityKeyStore } from "@margin/core/access/IdentityKeyStore"
import type { RepositoryError } from "@margin/core/kernel/Errors"
import type { UserId } from "@margin/core/kernel/Ids"
import { Clock, type Config, Context, Effect, Layer } from "effect"
import { importJWK, SignJWT } from "jose"
import { sessionJwtSettingsConfig } from "./SessionJwt.ts"
import { developmentIdentityKey, privateJwkOf } from "./SessionJwtKeys.ts"

/** How long a development session lives unless asked otherwise. */
export const defaultSessionLifetimeSeconds = 3600

/**
 * Signs session JWTs with the development identity key, standing in for the identity provider
 * on machines without one (`marginctl session-token`). The service verifies them only while no
 * session key is configured.
 */
export class SessionSigner extends Context.Service<
  SessionSigner,
  {
    readonly sign: (userId: UserId, expiresInSeconds: number) => Effect.Effect<string>
  }
>()("margin/edge/SessionSigner") {
  static readonly layerDevelopment: Layer.Layer<SessionSigner, RepositoryError | Config.ConfigError, IdentityKeyStore> =
    Layer.effect(
      SessionSigner,
      Effect.gen(function* () {
        const settings = yield* sessionJwtSettingsConfig
        const identity = yield* developmentIdentityKey
        const jwk = yield* privateJwkOf(identity)
        const key = yield* Effect.promise(() => importJWK(jwk, identity.algorithm))
        return SessionSigner.of({
          sign: Effect.fn("SessionSigner.sign")(function* (userId: UserId, expiresInSeconds: number) {
            const issuedAt = Math.floor((yield* Clock.currentTimeMillis) / 1000)
            return yield* Effect.promise(() =>
              new SignJWT({})
                .setProtectedHeader({ alg: identity.algorithm, kid: identity.kid, typ: "JWT" })
                .setSubject(userId)
                .setIssuer(settings.issuer)
                .setAudience(settings.audience)
                .setIssuedAt(issuedAt)
                .setExpirationTime(issuedAt + expiresInSeconds)
                .sign(key)
            )
          })
        })
      })
    )
}
