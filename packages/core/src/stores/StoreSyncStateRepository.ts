import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import type { StoreSyncState } from "./StoreSyncState.ts"

/** Where each workspace's store sync stands (one row per workspace). */
export class StoreSyncStateRepository extends Context.Service<
  StoreSyncStateRepository,
  {
    readonly get: (workspaceId: WorkspaceId) => Effect.Effect<Option.Option<StoreSyncState>, RepositoryError>
    /** Creates or replaces the workspace's state; inside a transaction, it lands with the sync or not at all. */
    readonly save: (state: StoreSyncState) => Effect.Effect<void, RepositoryError>
  }
>()("margin/core/StoreSyncStateRepository") {}
