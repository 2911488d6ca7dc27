import { assert, layer } from "@effect/vitest"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { marginctlJsonOnTestDatabase, processTimeout, recordOf, textOf } from "./testing/Marginctl.ts"

/**
 * marginctl demo as processes started at the same instant, on a fresh migrated database of its own
 * (see CliAccounts.test.ts); the sequential case is in CliWorkflows.test.ts.
 */

layer(TestDatabase.layer, { timeout: "5 minutes" })("marginctl demo, concurrently", (it) => {
  it.effect(
    "two demos started together seed one workspace; the other finds it",
    () =>
      Effect.gen(function* () {
        const both = yield* Effect.all([marginctlJsonOnTestDatabase("demo"), marginctlJsonOnTestDatabase("demo")], {
          concurrency: "unbounded"
        })
        const workspaceId = textOf(both[0].workspace_id)
        assert.strictEqual(both[1].workspace_id, workspaceId)
        assert.deepStrictEqual(both.map((demo) => demo.created).sort(), [false, true])
        assert.deepStrictEqual(both[0].users, both[1].users)
        assert.strictEqual(recordOf(both[0].run).id, recordOf(both[1].run).id)
        const sql = yield* SqlClient.SqlClient
        const [counts] = yield* sql<{
          readonly workspaces: number
          readonly users: number
          readonly members: number
          readonly items: number
          readonly variants: number
          readonly runs: number
          readonly tokens: number
        }>`
          SELECT (SELECT count(*) FROM workspaces WHERE name = 'Demo Store') AS workspaces,
                 (SELECT count(*) FROM users WHERE email LIKE '%@demo-store.example') AS users,
                 (SELECT count(*) FROM memberships WHERE workspace_id = ${workspaceId}) AS members,
                 (SELECT count(*) FROM catalog_items WHERE workspace_id = ${workspaceId}) AS items,
                 (SELECT count(*) FROM sandbox_store_variants WHERE workspace_id = ${workspaceId}) AS variants,
                 (SELECT count(*) FROM runs WHERE workspace_id = ${workspaceId}) AS runs,
                 (SELECT count(*) FROM api_tokens WHERE workspace_id = ${workspaceId}) AS tokens`
        // Each demo issues its own two tokens; everything else exists once.
        assert.deepStrictEqual(counts, {
          workspaces: 1,
          users: 2,
          members: 2,
          items: 200,
          variants: 200,
          runs: 1,
          tokens: 4
        })
      }),
    processTimeout
  )
})
