import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { OAuthClientId } from "../kernel/Ids.ts"
import type { OAuthClient } from "./OAuthClient.ts"

/** A client as stored: its secret, when it has one, only as the hex SHA-256 of it. */
export interface StoredOAuthClient {
  readonly client: OAuthClient
  readonly secretHash: string | null
}

/** The authorization server's client registry. */
export class OAuthClientRepository extends Context.Service<
  OAuthClientRepository,
  {
    readonly get: (id: OAuthClientId) => Effect.Effect<Option.Option<StoredOAuthClient>, RepositoryError>
    /**
     * Stores the client under its id, replacing what was stored: a metadata document read again
     * may have changed. The first `createdAt` stays.
     */
    readonly save: (client: OAuthClient, secretHash: string | null) => Effect.Effect<void, RepositoryError>
    /**
     * Deletes the clients first seen before `createdBefore` that never completed a consent (no
     * grant, live or revoked, names them): registrations nobody used. Answers how many went.
     */
    readonly deleteUnused: (createdBefore: number) => Effect.Effect<number, RepositoryError>
  }
>()("margin/core/OAuthClientRepository") {}
