/**
 * Another process for EmbeddedDatabase.test.ts: uses the embedded database of DATA_DIR the way
 * every process does (Database.layerEmbedded, migrated), records a workspace, prints one JSON line
 * `{ role, pid, workspaces }` and then, with `--hold`, keeps using the database until it is
 * stopped (SIGTERM: a graceful end) or killed.
 *   node EmbeddedProbe.ts <dataDir> <workspaceId> [--hold]
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Effect, References } from "effect"
import { SqlClient } from "effect/sql"
import * as Database from "../src/Database.ts"
import { DatabaseInfo } from "../src/DatabaseInfo.ts"
import * as Migrations from "../src/Migrations.ts"
import { insertWorkspace } from "./WorkspaceRow.ts"

const [dataDir = "", workspaceId = "", mode] = process.argv.slice(2)

const program = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const info = yield* DatabaseInfo
  yield* Migrations.run
  yield* insertWorkspace(workspaceId, { name: `Probe ${process.pid}` })
  const rows = yield* sql<{ readonly id: string }>`SELECT id FROM workspaces ORDER BY id`
  yield* Effect.sync(() =>
    process.stdout.write(
      `${JSON.stringify({ role: info.role, pid: process.pid, workspaces: rows.map((row) => row.id) })}\n`
    )
  )
  if (mode === "--hold") yield* Effect.never
})

program.pipe(
  Effect.provide(Database.layerEmbedded(dataDir)),
  // stdout carries the one JSON line.
  Effect.provideService(References.MinimumLogLevel, "Warn"),
  NodeRuntime.runMain
)
