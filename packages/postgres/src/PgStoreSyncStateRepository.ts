import { WorkspaceId } from "@margin/core/kernel/Ids"
import {
  PendingStoreRead,
  StoreOrdersSyncState,
  StoreSyncReport,
  type StoreSyncState
} from "@margin/core/stores/StoreSyncState"
import { StoreSyncStateRepository } from "@margin/core/stores/StoreSyncStateRepository"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { NullableInstant, toNullableTimestamptz } from "./PgColumns.ts"
import { asRepositoryWith } from "./PgRepositoryError.ts"
import { columnsOf, firstOf } from "./PgRows.ts"

/** A row of `store_sync_states`; the pending read and the last report are jsonb, in the domain's shape. */
export const StoreSyncStateRow = Schema.Struct({
  workspace_id: WorkspaceId,
  synced_up_to: NullableInstant,
  full_synced_up_to: NullableInstant,
  pending: Schema.NullOr(PendingStoreRead),
  last: Schema.NullOr(StoreSyncReport),
  orders: StoreOrdersSyncState
})

const toDomain = (row: typeof StoreSyncStateRow.Type): StoreSyncState => ({
  workspaceId: row.workspace_id,
  syncedUpTo: row.synced_up_to,
  fullSyncedUpTo: row.full_synced_up_to,
  pending: row.pending,
  last: row.last,
  orders: row.orders
})

const one = firstOf(StoreSyncStateRow, toDomain)

const jsonOrNull = (value: unknown): string | null => (value === null ? null : JSON.stringify(value))

export const layer: Layer.Layer<StoreSyncStateRepository, never, SqlClient.SqlClient> = Layer.effect(
  StoreSyncStateRepository,
  Effect.map(SqlClient.SqlClient, (client) => {
    const sql = client.withoutTransforms()
    const columns = sql.literal(columnsOf(StoreSyncStateRow))
    return StoreSyncStateRepository.of({
      get: (workspaceId) =>
        sql`SELECT ${columns} FROM store_sync_states WHERE workspace_id = ${workspaceId}`.pipe(
          asRepositoryWith("StoreSyncStateRepository.get", one)
        ),
      save: (state) =>
        sql`
        INSERT INTO store_sync_states (${columns})
        VALUES (${state.workspaceId}, ${toNullableTimestamptz(state.syncedUpTo)}, ${toNullableTimestamptz(state.fullSyncedUpTo)},
          ${jsonOrNull(state.pending)}::jsonb, ${jsonOrNull(state.last)}::jsonb, ${JSON.stringify(state.orders)}::jsonb)
        ON CONFLICT (workspace_id) DO UPDATE SET synced_up_to = EXCLUDED.synced_up_to, full_synced_up_to = EXCLUDED.full_synced_up_to,
          pending = EXCLUDED.pending, last = EXCLUDED.last, orders = EXCLUDED.orders`.pipe(
          asRepositoryWith("StoreSyncStateRepository.save", () => Effect.void)
        )
    })
  })
)
