import { Context, type Effect } from "effect"

/** A new API token secret (`pck_…`) and the hex SHA-256 hash that is stored in its place. */
export interface NewTokenSecret {
  readonly secret: string
  readonly hash: string
}

/** Makes API token secrets: the randomness and the hashing live in the adapter (Node's crypto). */
export class TokenSecrets extends Context.Service<
  TokenSecrets,
  {
    readonly next: Effect.Effect<NewTokenSecret>
  }
>()("margin/core/TokenSecrets") {}
