import { randomBytes } from "node:crypto"
import { Config, Context, Effect, Layer, Option, Redacted } from "effect"

export interface OAuthLoginSettingsShape {
  /**
   * Sign-in by an e-mail link (sent through the Mailer when there is one, and printed in the log):
   * for development and the embedded database, so `npm start` shows the whole flow alone.
   */
  readonly emailLink: boolean
  /** The HMAC key of the sign-in link and the browser's sign-in cookie. */
  readonly key: Redacted.Redacted<Uint8Array>
  /** Sign-in through the upstream OpenID Connect provider that issues the session JWTs, when configured. */
  readonly oidc?: OidcSettings
}

/** OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: this service as a confidential client of the provider. */
export interface OidcSettings {
  readonly issuer: string
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
}

/**
 * How users sign in to consent: the upstream OpenID Connect provider (OIDC_ISSUER, OIDC_CLIENT_ID,
 * OIDC_CLIENT_SECRET; users matched by their verified e-mail), and/or OAUTH_DEV_LOGIN (default: on when DATABASE_URL is unset, i.e. on
 * the embedded database) and OAUTH_LOGIN_SECRET (the HMAC key; default: random per process, so a
 * restart signs everyone out and older links stop working).
 */
export class OAuthLoginSettings extends Context.Service<OAuthLoginSettings, OAuthLoginSettingsShape>()(
  "margin/oauth/OAuthLoginSettings"
) {
  static readonly layer = Layer.effect(
    OAuthLoginSettings,
    Effect.gen(function* () {
      const database = yield* Config.option(Config.String("DATABASE_URL"))
      const emailLink = yield* Config.Boolean("OAUTH_DEV_LOGIN").pipe(Config.withDefault(Option.isNone(database)))
      const secret = yield* Config.option(Config.Redacted("OAUTH_LOGIN_SECRET"))
      const key = Option.match(secret, {
        onNone: () => randomBytes(32),
        onSome: (value) => new TextEncoder().encode(Redacted.value(value))
      })
      const oidc = yield* Config.option(
        Config.all({
          issuer: Config.String("OIDC_ISSUER"),
          clientId: Config.String("OIDC_CLIENT_ID"),
          clientSecret: Config.Redacted("OIDC_CLIENT_SECRET")
        })
      )
      const settings: OAuthLoginSettingsShape = Option.match(oidc, {
        onNone: () => ({ emailLink, key: Redacted.make(key) }),
        onSome: (upstream) => ({ emailLink, key: Redacted.make(key), oidc: upstream })
      })
      return settings
    })
  )

  static readonly layerWith = (settings: OAuthLoginSettingsShape) => Layer.succeed(OAuthLoginSettings, settings)
}
