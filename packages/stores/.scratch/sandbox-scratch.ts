import { NodeRuntime } from "@effect/platform-node"
import { WorkspaceId } from "@margin/core/Ids"
import * as Database from "@margin/postgres/Database"
import * as Migrations from "@margin/postgres/Migrations"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { SandboxFaults } from "../src/SandboxFaults.ts"
import { listWrites, SandboxStore, sandboxPrice, seedVariants, setPriceBehindOurBack } from "../src/SandboxStore.ts"
import { connectionFor, writeBackFor } from "../src/testing/WriteBackFixtures.ts"

const Db = Migrations.layer.pipe(
  Layer.provideMerge(Database.layerPostgres(Redacted.make("postgres://postgres@127.0.0.1:5432/stores_scratch")))
)

const program = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO workspaces (id, name, plan, lifecycle_state, target_margin, min_margin, max_change_pct, rounding, threshold) VALUES ('ws_a', 'A', 'max', 'active', 0.3, 0.1, 0.1, 'none', 0.01) ON CONFLICT DO NOTHING`
  yield* sql`DELETE FROM sandbox_store_writes`
  const ws = WorkspaceId.make("ws_a")
  yield* seedVariants(ws, [{ variantRef: "v1", price: 1000, currency: "USD" }])
  const store = yield* SandboxStore
  const wb = writeBackFor({ workspaceId: "ws_a", variantRef: "v1", oldPrice: 1000, newPrice: 1200 })
  const results = yield* Effect.all(
    Array.from({ length: 50 }, () => store.deliver(connectionFor("sandbox", "ws_a"), wb)),
    { concurrency: "unbounded" }
  )
  const counts: Record<string, number> = {}
  for (const r of results) counts[r._tag] = (counts[r._tag] ?? 0) + 1
  console.log(counts, yield* listWrites(ws), yield* sandboxPrice(ws, "v1"))
  yield* setPriceBehindOurBack(ws, "v1", 1300)
  console.log(
    yield* store.deliver(
      connectionFor("sandbox", "ws_a"),
      writeBackFor({ workspaceId: "ws_a", variantRef: "v1", oldPrice: 1200, newPrice: 1250 })
    )
  )
})

program.pipe(
  Effect.provide(SandboxStore.layer.pipe(Layer.provide(SandboxFaults.layerTest), Layer.provideMerge(Db))),
  NodeRuntime.runMain
)
