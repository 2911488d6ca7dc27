import { Context, Effect, Layer, Option } from "effect"
import type { WorkspaceId } from "../kernel/Ids.ts"
import type { StoreConnection } from "../stores/StoreConnection.ts"
import { StoreUnavailable, type StoreWriteResult } from "../writeback/StoreWriteBack.ts"
import type { WriteBack } from "../writeback/WriteBack.ts"

/** One price the fake store accepted. */
export interface StoreWrite {
  readonly workspaceId: WorkspaceId
  readonly variantRef: string
  readonly writeBackId: string
  readonly idempotencyKey: string
  readonly oldPrice: number
  readonly newPrice: number
}

/**
 * A fake commerce store for tests: variant prices keyed by (workspace, variant ref), the
 * read-compare-write rule of the StoreWriteBack port, a record of every write, and knobs that
 * make the next deliveries fail. Not part of MemoryDatabase: the store is another system, and a
 * rolled-back transaction does not undo what it already accepted.
 */
export class MemoryStore extends Context.Service<
  MemoryStore,
  {
    /** Seeds a variant's price, or changes it behind the service's back. */
    readonly setPrice: (workspaceId: WorkspaceId, variantRef: string, price: number) => Effect.Effect<void>
    readonly priceOf: (workspaceId: WorkspaceId, variantRef: string) => Effect.Effect<Option.Option<number>>
    /** Every write the store accepted, oldest first. */
    readonly writes: Effect.Effect<ReadonlyArray<StoreWrite>>
    /** How many deliveries reached the store, including failed ones. */
    readonly deliveries: Effect.Effect<number>
    /** The next `count` deliveries fail with StoreUnavailable (transient: the outbox retries). */
    readonly failNext: (count: number, message?: string) => Effect.Effect<void>
    /** The next `count` deliveries are refused for good (Rejected). */
    readonly rejectNext: (count: number, message?: string) => Effect.Effect<void>
    /** The port's operation; MemoryStoreWriteBack binds it to StoreWriteBack. */
    readonly deliver: (
      connection: StoreConnection,
      writeBack: WriteBack
    ) => Effect.Effect<StoreWriteResult, StoreUnavailable>
  }
>()("margin/core/memory/MemoryStore") {
  static readonly layer: Layer.Layer<MemoryStore> = Layer.effect(
    MemoryStore,
    Effect.sync(() => {
      // Every operation is one synchronous step, so plain mutable state is updated atomically.
      const prices = new Map<string, number>()
      const writes: Array<StoreWrite> = []
      const failures = { unavailable: 0, unavailableMessage: "", rejected: 0, rejectedMessage: "" }
      let deliveries = 0
      const key = (workspaceId: string, variantRef: string) => `${workspaceId}/${variantRef}`

      const decide = (connection: StoreConnection, writeBack: WriteBack): StoreWriteResult | StoreUnavailable => {
        deliveries++
        if (failures.unavailable > 0) {
          failures.unavailable--
          return new StoreUnavailable({ message: failures.unavailableMessage })
        }
        if (failures.rejected > 0) {
          failures.rejected--
          return { _tag: "Rejected", message: failures.rejectedMessage }
        }
        const { payload } = writeBack
        if (connection.status !== "connected") return { _tag: "Rejected", message: "the store is not connected" }
        if (payload.storeVariantRef === null)
          return { _tag: "Rejected", message: `${payload.sku} has no store variant` }
        const variant = key(writeBack.workspaceId, payload.storeVariantRef)
        const current = prices.get(variant)
        if (current === undefined) return { _tag: "Rejected", message: `unknown variant ${payload.storeVariantRef}` }
        if (current === payload.newPrice) return { _tag: "AlreadyApplied" }
        if (current !== payload.oldPrice) return { _tag: "PriceDrift", observedPrice: current }
        prices.set(variant, payload.newPrice)
        writes.push({
          workspaceId: writeBack.workspaceId,
          variantRef: payload.storeVariantRef,
          writeBackId: writeBack.id,
          idempotencyKey: writeBack.idempotencyKey,
          oldPrice: payload.oldPrice,
          newPrice: payload.newPrice
        })
        return { _tag: "Applied" }
      }

      return MemoryStore.of({
        setPrice: (workspaceId, variantRef, price) =>
          Effect.sync(() => void prices.set(key(workspaceId, variantRef), price)),
        priceOf: (workspaceId, variantRef) =>
          Effect.sync(() => Option.fromUndefinedOr(prices.get(key(workspaceId, variantRef)))),
        writes: Effect.sync(() => [...writes]),
        deliveries: Effect.sync(() => deliveries),
        failNext: (count, message = "the store is unavailable (injected)") =>
          Effect.sync(() => {
            failures.unavailable = count
            failures.unavailableMessage = message
          }),
        rejectNext: (count, message = "the store refused the write (injected)") =>
          Effect.sync(() => {
            failures.rejected = count
            failures.rejectedMessage = message
          }),
        deliver: (connection, writeBack) =>
          Effect.suspend(() => {
            const answer = decide(connection, writeBack)
            return answer instanceof StoreUnavailable ? Effect.fail(answer) : Effect.succeed(answer)
          })
      })
    })
  )
}
