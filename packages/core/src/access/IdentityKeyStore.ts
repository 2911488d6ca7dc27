import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"

/**
 * The development identity key: an ES256 key pair generated once and kept in the database, so
 * that the service and `marginctl session-token` agree on it across processes and restarts.
 * Used only when no session key is configured (SESSION_JWKS_FILE, SESSION_PUBLIC_KEY, SESSION_JWKS_URL).
 */
export interface IdentityKey {
  /** The key id (RFC 7638 thumbprint of the public key), sent as the JWT `kid`. */
  readonly kid: string
  readonly algorithm: "ES256"
  /** JSON text of the public JWK. */
  readonly publicJwk: string
  /** JSON text of the private JWK; it never leaves the store but to sign development sessions. */
  readonly privateJwk: string
  readonly createdAt: number
}

export class IdentityKeyStore extends Context.Service<
  IdentityKeyStore,
  {
    /** The stored key, if one was generated already. */
    readonly current: Effect.Effect<Option.Option<IdentityKey>, RepositoryError>
    /**
     * Stores `candidate` unless a key is stored already, and returns the stored key: when two
     * processes generate one at the same time, both end up with the same key.
     */
    readonly insertIfAbsent: (candidate: IdentityKey) => Effect.Effect<IdentityKey, RepositoryError>
  }
>()("margin/core/IdentityKeyStore") {}
