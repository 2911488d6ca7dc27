import { Context, type Effect } from "effect"

/** A secret handed out once, and the hash it is stored and found under. */
export interface IssuedSecret {
  readonly secret: string
  readonly hash: string
}

/**
 * The cryptography of the authorization server, which core does not do itself: random secrets
 * (codes, tokens, client secrets) with a readable prefix, their hex SHA-256, and PKCE's S256.
 */
export class OAuthSecrets extends Context.Service<
  OAuthSecrets,
  {
    readonly issue: (prefix: string) => Effect.Effect<IssuedSecret>
    readonly hash: (secret: string) => string
    /** base64url (unpadded) of the SHA-256 of `verifier`: PKCE's S256 transform. */
    readonly s256: (verifier: string) => string
  }
>()("margin/core/OAuthSecrets") {}
