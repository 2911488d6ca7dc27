import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../Errors.ts"
import type { WorkspaceId } from "../Ids.ts"
import type { StoreConnection } from "../StoreConnection.ts"

export class StoreConnectionRepository extends Context.Service<
  StoreConnectionRepository,
  {
    readonly get: (workspaceId: WorkspaceId) => Effect.Effect<Option.Option<StoreConnection>, RepositoryError>
    /** Connects or reconnects; `credentials` are stored encrypted by the adapter and never read back by core. */
    readonly connect: (connection: StoreConnection, credentials: string | null) => Effect.Effect<void, RepositoryError>
    readonly disconnect: (workspaceId: WorkspaceId) => Effect.Effect<boolean, RepositoryError>
  }
>()("margin/core/StoreConnectionRepository") {}
