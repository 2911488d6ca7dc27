import { NodeRuntime } from "@effect/platform-node"
import { WorkspaceId } from "@margin/core/Ids"
import * as Database from "@margin/postgres/Database"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { SandboxFaults } from "../src/SandboxFaults.ts"
import { SandboxStore, seedVariants } from "../src/SandboxStore.ts"
import { connectionFor, writeBackFor } from "../src/testing/WriteBackFixtures.ts"

const Db = Database.layerPostgres(Redacted.make("postgres://postgres@127.0.0.1:5432/stores_scratch"))
const program = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM sandbox_store_writes`
  yield* seedVariants(WorkspaceId.make("ws_a"), [{ variantRef: "v2", price: 500, currency: "USD" }])
  const store = yield* SandboxStore
  const result = yield* store.deliver(
    connectionFor("sandbox", "ws_a"),
    writeBackFor({ workspaceId: "ws_a", variantRef: "v2", oldPrice: 500, newPrice: 700 })
  )
  console.log("survived?", result)
})
program.pipe(
  Effect.provide(SandboxStore.layer.pipe(Layer.provide(SandboxFaults.layer), Layer.provideMerge(Db))),
  NodeRuntime.runMain
)
