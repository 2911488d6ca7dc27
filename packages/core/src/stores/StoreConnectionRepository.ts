import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import type { Page, PageRequest } from "../kernel/Page.ts"
import type { StoreConnection, StoreConnectionStatus } from "./StoreConnection.ts"

export class StoreConnectionRepository extends Context.Service<
  StoreConnectionRepository,
  {
    readonly get: (workspaceId: WorkspaceId) => Effect.Effect<Option.Option<StoreConnection>, RepositoryError>
    /** Connects or reconnects; `credentials` are stored encrypted by the adapter and never read back by core. */
    readonly connect: (connection: StoreConnection, credentials: string | null) => Effect.Effect<void, RepositoryError>
    readonly disconnect: (workspaceId: WorkspaceId) => Effect.Effect<boolean, RepositoryError>
    /**
     * Every workspace's connection (for operators, marginctl), newest `connectedAt` first, ties by
     * workspace id: the page's cursor is (`connectedAt`, `workspaceId`). Only `status` when given.
     */
    readonly list: (
      filter: { readonly status: StoreConnectionStatus | null },
      page: PageRequest
    ) => Effect.Effect<Page<StoreConnection>, RepositoryError>
  }
>()("margin/core/StoreConnectionRepository") {}
