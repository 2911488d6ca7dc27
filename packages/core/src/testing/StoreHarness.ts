import { Context, type Effect, type Option } from "effect"
import type { WorkspaceId } from "../kernel/Ids.ts"
import type { StoreConnection } from "../stores/StoreConnection.ts"

/**
 * What the StoreWriteBack contract needs to steer a store adapter's fake or sandbox store:
 * create variants, change their price behind the service's back, read them.
 */
export class StoreHarness extends Context.Service<
  StoreHarness,
  {
    /** The connection the adapter delivers through, set up for `workspaceId`. */
    readonly connection: (workspaceId: WorkspaceId) => Effect.Effect<StoreConnection>
    /** A new variant selling at `price`; answers its store ref. */
    readonly newVariant: (workspaceId: WorkspaceId, price: number) => Effect.Effect<string>
    readonly setPrice: (workspaceId: WorkspaceId, variantRef: string, price: number) => Effect.Effect<void>
    readonly priceOf: (workspaceId: WorkspaceId, variantRef: string) => Effect.Effect<Option.Option<number>>
  }
>()("margin/core/testing/StoreHarness") {}
