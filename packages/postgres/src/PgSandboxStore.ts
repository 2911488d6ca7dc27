import type { RepositoryError } from "@margin/core/kernel/Errors"
import type { WorkspaceId } from "@margin/core/kernel/Ids"
import { checkPrice } from "@margin/core/writeback/PriceCheck"
import { StoreUnavailable, type StoreWriteResult } from "@margin/core/writeback/StoreWriteBack"
import type { WriteBack } from "@margin/core/writeback/WriteBack"
import { Array as Arr, Clock, Effect, Option, Schema, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { Instant, Int8, toTimestamptz } from "./PgColumns.ts"
import { asRepository } from "./PgRepositoryError.ts"
import { rowsOf } from "./PgRows.ts"

/**
 * The tables of the sandbox store, a commerce store simulated inside our own database (the
 * default store for demos and tests; its StoreWriteBack adapter, with its faults, is SandboxStore
 * of @margin/stores). Variant prices live in `sandbox_store_variants`; every write the store
 * accepts is recorded in `sandbox_store_writes`, so tests and `marginctl store writes` can count
 * them. Unlike Shopify it can compare and write atomically: the variant row is locked (SELECT ...
 * FOR UPDATE) for the read, the compare and the write, so concurrent deliveries of one write-back
 * cannot both write. Like a merchant's store it has every product of the catalog: a variant it
 * lacks (an item imported after `store connect`) is added at the item's catalog price when a
 * write-back addresses it.
 */

// Queries run without the client's name transforms (like the other adapters): rows are snake_case.
const VariantRow = Schema.Struct({ price: Int8, currency: Schema.String })

const WriteRow = Schema.Struct({
  id: Schema.String,
  variant_ref: Schema.String,
  old_price: Int8,
  new_price: Int8,
  idempotency_key: Schema.String,
  written_at: Instant
})

/** One write the sandbox store accepted; `writtenAt` in epoch milliseconds. */
export interface SandboxWrite {
  readonly id: string
  readonly variantRef: string
  readonly oldPrice: number
  readonly newPrice: number
  readonly idempotencyKey: string
  readonly writtenAt: number
}

const variantRows = rowsOf(VariantRow, (row) => row)
const writeRows = rowsOf(
  WriteRow,
  (row): SandboxWrite => ({
    id: row.id,
    variantRef: row.variant_ref,
    oldPrice: row.old_price,
    newPrice: row.new_price,
    idempotencyKey: row.idempotency_key,
    writtenAt: row.written_at
  })
)

/** The SqlClient as every statement here expects it: no name transforms. */
const sqlClient = Effect.map(SqlClient.SqlClient, (sql) => sql.withoutTransforms())

const rejected = (message: string): StoreWriteResult => ({ _tag: "Rejected", message })

export interface PgSandboxStore {
  /**
   * Reads the variant's price, compares it (core's PriceCheck) and writes, under the variant's row
   * lock: the whole delivery is one transaction. A database that fails is StoreUnavailable.
   */
  readonly compareAndWrite: (
    writeBack: WriteBack,
    variantRef: string,
    now: number
  ) => Effect.Effect<StoreWriteResult, StoreUnavailable>
}

/** The sandbox store over the SqlClient in context. */
export const make: Effect.Effect<PgSandboxStore, never, SqlClient.SqlClient> = Effect.map(sqlClient, (sql) => ({
  compareAndWrite: (writeBack, variantRef, now) =>
    Effect.gen(function* () {
      const { workspaceId, payload } = writeBack
      const at = toTimestamptz(now)
      // The sandbox plays the merchant's store, which has every product of the catalog: an item
      // imported after the store was connected joins it at its catalog price on its first write.
      yield* sql`
        INSERT INTO sandbox_store_variants (workspace_id, variant_ref, price, currency, updated_at)
        SELECT workspace_id, ${variantRef}, price, currency, ${at} FROM catalog_items
        WHERE workspace_id = ${workspaceId} AND id = ${payload.itemId}
        ON CONFLICT (workspace_id, variant_ref) DO NOTHING`
      const rows = yield* sql`
        SELECT price, currency FROM sandbox_store_variants
        WHERE workspace_id = ${workspaceId} AND variant_ref = ${variantRef}
        FOR UPDATE`
      const [row] = yield* variantRows(rows)
      if (row === undefined) return rejected(`the sandbox store has no variant ${variantRef}`)
      if (row.currency !== payload.currency) {
        return rejected(`variant ${variantRef} is priced in ${row.currency}, the write-back is in ${payload.currency}`)
      }
      const check = checkPrice(row.price, payload)
      if (check._tag !== "Write") return check
      yield* sql`
        UPDATE sandbox_store_variants SET price = ${payload.newPrice}, updated_at = ${at}
        WHERE workspace_id = ${workspaceId} AND variant_ref = ${variantRef}`
      yield* sql`
        INSERT INTO sandbox_store_writes
          (workspace_id, variant_ref, old_price, new_price, idempotency_key, written_at)
        VALUES (${workspaceId}, ${variantRef}, ${payload.oldPrice}, ${payload.newPrice}, ${writeBack.idempotencyKey}, ${at})`
      return { _tag: "Applied" } satisfies StoreWriteResult
    }).pipe(
      sql.withTransaction,
      Effect.catchTags({
        SqlError: (error) => Effect.fail(new StoreUnavailable({ message: `sandbox store: ${error.message}` })),
        SchemaError: (error) => Effect.die(error)
      })
    )
}))

/** Creates or replaces the sandbox store's variants of a workspace (demos, tests, `marginctl seed`). */
export const seedVariants = Effect.fn("SandboxStore.seedVariants")(function* (
  workspaceId: WorkspaceId,
  variants: ReadonlyArray<{ readonly variantRef: string; readonly price: number; readonly currency: string }>
) {
  const sql = yield* sqlClient
  const updatedAt = toTimestamptz(yield* Clock.currentTimeMillis)
  if (!Arr.isReadonlyArrayNonEmpty(variants)) return
  const rows = Arr.map(variants, ({ variantRef, price, currency }) => ({
    workspace_id: workspaceId,
    variant_ref: variantRef,
    price,
    currency,
    updated_at: updatedAt
  }))
  yield* sql`
      INSERT INTO sandbox_store_variants ${sql.insert(rows)}
      ON CONFLICT (workspace_id, variant_ref)
      DO UPDATE SET price = EXCLUDED.price, currency = EXCLUDED.currency, updated_at = EXCLUDED.updated_at`
}, asRepository("sandbox.seedVariants"))

/** Someone changes a price in the store directly, as a merchant would in their shop's admin (fault tests). */
export const setPriceBehindOurBack = Effect.fn("SandboxStore.setPriceBehindOurBack")(function* (
  workspaceId: WorkspaceId,
  variantRef: string,
  price: number
) {
  const sql = yield* sqlClient
  const at = toTimestamptz(yield* Clock.currentTimeMillis)
  yield* sql`
      UPDATE sandbox_store_variants SET price = ${price}, updated_at = ${at}
      WHERE workspace_id = ${workspaceId} AND variant_ref = ${variantRef}`
}, asRepository("sandbox.setPriceBehindOurBack"))

/** The variant's current price in the sandbox store, if it has the variant. */
export const sandboxPrice = Effect.fn("SandboxStore.price")(function* (workspaceId: WorkspaceId, variantRef: string) {
  const sql = yield* sqlClient
  const rows = yield* sql`
      SELECT price, currency FROM sandbox_store_variants
      WHERE workspace_id = ${workspaceId} AND variant_ref = ${variantRef}`
  const [row] = yield* variantRows(rows)
  return row === undefined ? null : row.price
}, asRepository("sandbox.price"))

/** Every write the sandbox store accepted for the workspace, oldest first (`marginctl store writes`, fault tests). */
export const listWrites = Effect.fn("SandboxStore.listWrites")(function* (workspaceId: WorkspaceId) {
  const sql = yield* sqlClient
  const rows = yield* sql`
      SELECT id, variant_ref, old_price, new_price, idempotency_key, written_at
      FROM sandbox_store_writes WHERE workspace_id = ${workspaceId}
      ORDER BY written_at, id`
  return yield* writeRows(rows)
}, asRepository("sandbox.listWrites"))

const StoreVariantRow = Schema.Struct({
  variant_ref: Schema.String,
  sku: Schema.String,
  price: Int8,
  currency: Schema.String
})

/** A variant of the sandbox store as a store sync reads it: the sku of the catalog item it plays. */
export interface SandboxVariant {
  readonly variantRef: string
  readonly sku: string
  readonly price: number
  readonly currency: string
}

const storeVariantRows = rowsOf(
  StoreVariantRow,
  (row): SandboxVariant => ({ variantRef: row.variant_ref, sku: row.sku, price: row.price, currency: row.currency })
)

/**
 * The sandbox store's variants changed after `since` (all when null), in pages of `pageSize` ordered by
 * variant ref, each with the sku of its catalog item (a variant is named by the item's store variant ref,
 * else by its sku: SandboxStore.sandboxVariantRef). A variant of no catalog item is not read.
 */
export const changedVariants = (
  workspaceId: WorkspaceId,
  since: number | null,
  pageSize: number
): Stream.Stream<SandboxVariant, RepositoryError, SqlClient.SqlClient> =>
  Stream.unwrap(
    Effect.map(sqlClient, (sql) =>
      Stream.paginate<string | null, SandboxVariant, RepositoryError>(null, (afterRef) =>
        sql`
          SELECT v.variant_ref, i.sku, v.price, v.currency
          FROM sandbox_store_variants v
          -- One equality (a hash join), not an OR of two (a nested loop over both tables).
          JOIN catalog_items i ON i.workspace_id = v.workspace_id
            AND coalesce(i.store_variant_ref, i.sku) = v.variant_ref
          WHERE v.workspace_id = ${workspaceId}
            AND ${since === null ? sql.literal("TRUE") : sql`v.updated_at > ${toTimestamptz(since)}`}
            AND ${afterRef === null ? sql.literal("TRUE") : sql`v.variant_ref > ${afterRef}`}
          ORDER BY v.variant_ref
          LIMIT ${pageSize}`.pipe(
          Effect.flatMap(storeVariantRows),
          Effect.map((page) => {
            const last = page.at(-1)
            return [
              page,
              page.length < pageSize || last === undefined ? Option.none() : Option.some(last.variantRef)
            ] as const
          }),
          asRepository("sandbox.changedVariants")
        )
      )
    )
  )
