import { assert, layer } from "@effect/vitest"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import {
  marginctlJsonOnTestDatabase,
  processTimeout,
  startMarginctlOnTestDatabase,
  tempFile,
  textOf
} from "./testing/Marginctl.ts"
import { untilNoneWriting, untilWriting } from "./testing/Writers.ts"

/**
 * `marginctl store sync` killed with kill -9 while its transaction writes the catalog: the catalog is as
 * it was (no price moved, no history point, no audit event), the read it had begun is still pending,
 * and the next sync finishes that read, once.
 */

const items = 30_000

// Live services: the test polls the database on the real clock.
layer(TestDatabase.layer, { timeout: "5 minutes", excludeTestServices: true })(
  "marginctl store sync killed with kill -9",
  (it) => {
    it.effect(
      "leaves nothing half-applied, and the next sync resumes the same read",
      () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const workspaceId = textOf(
            (yield* marginctlJsonOnTestDatabase("workspace", "create", "--name", "Sync Kill Co", "--plan", "max")).id
          )
          const csv = tempFile(
            "items.csv",
            [
              "sku,title,currency,price,cost",
              ...Array.from({ length: items }, (_, n) => `S-${n},Item ${n},USD,10.00,1.00`)
            ].join("\n")
          )
          yield* marginctlJsonOnTestDatabase("catalog", "import", "--workspace", workspaceId, "--file", csv)
          yield* marginctlJsonOnTestDatabase("store", "connect", "--workspace", workspaceId, "--platform", "sandbox")
          const first = yield* marginctlJsonOnTestDatabase("store", "sync", "--workspace", workspaceId)
          assert.deepStrictEqual([first.full, first.unchanged], [true, items])

          // The merchant changes every price in the store: the next sync has a lot to write.
          yield* sql`UPDATE sandbox_store_variants SET price = 1200, updated_at = now() WHERE workspace_id = ${workspaceId}`
          const catalog = sql<{ readonly total: number; readonly points: number }>`
          SELECT sum(price)::int AS total, sum(jsonb_array_length(price_history))::int AS points
          FROM catalog_items WHERE workspace_id = ${workspaceId}`
          const before = yield* catalog
          assert.deepStrictEqual(before, [{ total: items * 1000, points: 0 }])
          const events = sql<{ readonly count: number }>`
          SELECT count(*)::int AS count FROM audit_events WHERE workspace_id = ${workspaceId} AND action = 'store.sync'`
          const syncState = sql<{ readonly pending: string | null; readonly syncedUpTo: Date | null }>`
          SELECT pending::text AS pending, synced_up_to FROM store_sync_states WHERE workspace_id = ${workspaceId}`
          const [applied] = yield* syncState

          // A backend writing the catalog inside a transaction: the sync is midway.
          const syncing = yield* startMarginctlOnTestDatabase("store", "sync", "--workspace", workspaceId, "--json")
          yield* untilWriting(sql, "catalog_items")
          assert.strictEqual(yield* syncing.kill9, "SIGKILL")
          assert.strictEqual(yield* syncing.stdout, "", "killed before it could answer")
          yield* untilNoneWriting(sql)
          assert.deepStrictEqual(yield* catalog, before, "nothing of the killed sync is left")
          assert.deepStrictEqual(yield* events, [{ count: 1 }])
          const [killed] = yield* syncState
          assert.match(killed?.pending ?? "", /sandbox:since:/, "the read it began is kept to be finished")
          assert.deepStrictEqual(killed?.syncedUpTo, applied?.syncedUpTo)

          const again = yield* marginctlJsonOnTestDatabase("store", "sync", "--workspace", workspaceId)
          assert.deepStrictEqual([again.full, again.price_changed, again.rejected_total], [false, items, 0])
          assert.deepStrictEqual(yield* catalog, [{ total: items * 1200, points: items }])
          assert.deepStrictEqual(yield* events, [{ count: 2 }])
          const [resumed] = yield* syncState
          assert.strictEqual(resumed?.pending, null)
        }),
      processTimeout
    )
  }
)
