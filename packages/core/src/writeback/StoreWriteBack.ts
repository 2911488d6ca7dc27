import { Context, type Effect, Schema } from "effect"
import type { StoreConnection } from "../stores/StoreConnection.ts"
import type { WriteBack } from "./WriteBack.ts"

/**
 * What the store answered to one delivery. The adapter reads the current store price first,
 * so a repeated delivery is harmless:
 * - equal to the new price  -> AlreadyApplied (a previous attempt landed);
 * - equal to the old price  -> write it -> Applied;
 * - anything else           -> PriceDrift, nothing written (someone changed it meanwhile);
 * - the store refused       -> Rejected (permanent: no retry).
 */
export type StoreWriteResult =
  | { readonly _tag: "Applied" }
  | { readonly _tag: "AlreadyApplied" }
  | { readonly _tag: "PriceDrift"; readonly observedPrice: number }
  | { readonly _tag: "Rejected"; readonly message: string }

/** Transient: timeout, 5xx, throttling beyond patience. The outbox retries with backoff. */
export class StoreUnavailable extends Schema.TaggedError<StoreUnavailable>()("StoreUnavailable", {
  message: Schema.String
}) {}

export class StoreWriteBack extends Context.Service<
  StoreWriteBack,
  {
    readonly deliver: (
      connection: StoreConnection,
      writeBack: WriteBack
    ) => Effect.Effect<StoreWriteResult, StoreUnavailable>
  }
>()("margin/core/StoreWriteBack") {}
