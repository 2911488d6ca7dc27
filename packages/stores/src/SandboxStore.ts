import type { StoreConnection } from "@margin/core/stores/StoreConnection"
import type { StoreWriteBack } from "@margin/core/writeback/StoreWriteBack"
import type { WriteBack } from "@margin/core/writeback/WriteBack"
import { PgSandboxStore } from "@margin/postgres"
import { Clock, Context, Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { SandboxFaults } from "./SandboxFaults.ts"

/**
 * The write-back adapter of the sandbox platform: a commerce store simulated inside our own
 * database (its tables and its compare-and-write are PgSandboxStore of @margin/postgres), the
 * default store for demos and tests, with the faults a test or the environment asks it to show
 * (SandboxFaults) around each delivery.
 */
export class SandboxStore extends Context.Service<SandboxStore, StoreWriteBack["Service"]>()(
  "margin/stores/SandboxStore"
) {
  static readonly layer: Layer.Layer<SandboxStore, never, SqlClient.SqlClient | SandboxFaults> = Layer.effect(
    SandboxStore,
    Effect.gen(function* () {
      const store = yield* PgSandboxStore.make
      const faults = yield* SandboxFaults

      const deliver = Effect.fn("SandboxStore.deliver")(function* (_connection: StoreConnection, writeBack: WriteBack) {
        yield* faults.beforeRead
        const variantRef = sandboxVariantRef(writeBack.payload)
        const result = yield* store.compareAndWrite(writeBack, variantRef, yield* Clock.currentTimeMillis)
        // Only now is the write committed: a crash injected here is "the store accepted it, we never heard".
        if (result._tag === "Applied") yield* faults.afterWrite
        return result
      })

      return SandboxStore.of({ deliver })
    })
  )
}

/**
 * The sandbox store knows an item by its store variant ref, else by its sku (unique in the workspace),
 * so a catalog imported without store refs can still be written back in demos and tests.
 */
export const sandboxVariantRef = (item: { readonly sku: string; readonly storeVariantRef: string | null }): string =>
  item.storeVariantRef ?? item.sku
