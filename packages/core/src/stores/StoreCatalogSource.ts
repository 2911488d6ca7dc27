import { Context, type Effect, Schema, type Stream } from "effect"
import type { Timestamp } from "../kernel/Timestamp.ts"
import type { StoreConnection } from "./StoreConnection.ts"
import type { StoreOrderLine } from "./StoreOrderLine.ts"
import type { StoreVariant } from "./StoreVariant.ts"

/**
 * The store could not be read. `restart` says the read itself is lost (a Shopify bulk operation that
 * FAILED, was CANCELED or whose result expired): the next sync begins a new one. Otherwise the same
 * read may be tried again later (the store unreachable, throttled beyond patience, a 5xx).
 */
export class StoreReadFailed extends Schema.TaggedError<StoreReadFailed>()("StoreReadFailed", {
  message: Schema.String,
  restart: Schema.Boolean
}) {}

/**
 * Reads a store's catalog for a store sync, never writing to it (write-back stays the only writer).
 * A read has three steps, so that the sync can keep its handle across a crash and wait for the store
 * outside its database transaction: `begin` asks the store for the variants changed after `since`
 * (null: all of them) and answers the read's handle; `ready` waits until the read can be streamed;
 * `variants` streams it. The adapter of each platform sits behind this port (`@margin/stores`).
 * Orders are read the same way: `beginOrders` asks for the orders updated after `since`, or (null)
 * for every order placed from `from` on; `ready` waits; `orderLines` streams their lines.
 */
export class StoreCatalogSource extends Context.Service<
  StoreCatalogSource,
  {
    readonly begin: (connection: StoreConnection, since: Timestamp | null) => Effect.Effect<string, StoreReadFailed>
    readonly ready: (connection: StoreConnection, ref: string) => Effect.Effect<void, StoreReadFailed>
    readonly variants: (connection: StoreConnection, ref: string) => Stream.Stream<StoreVariant, StoreReadFailed>
    readonly beginOrders: (
      connection: StoreConnection,
      since: Timestamp | null,
      from: Timestamp
    ) => Effect.Effect<string, StoreReadFailed>
    readonly orderLines: (connection: StoreConnection, ref: string) => Stream.Stream<StoreOrderLine, StoreReadFailed>
  }
>()("margin/core/StoreCatalogSource") {}
