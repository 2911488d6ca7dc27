import { assert, layer } from "@effect/vitest"
import { MembershipRepository } from "@margin/core/access/MembershipRepository"
import { newWriteBack, seedItem, seedRecommendation, seedRun, seedUser, seedWorkspace } from "@margin/core/testing/Seed"
import { WriteBackOutbox } from "@margin/core/writeback/WriteBackOutbox"
import { PgAdapters } from "@margin/postgres"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { assertFailed, jsonOf, marginctlOnTestDatabase, processTimeout } from "./testing/Marginctl.ts"

/** `marginctl store cancel-write-back`: an admin or the owner cancels a pending write-back; audited. */

const services = PgAdapters.layer.pipe(Layer.provideMerge(TestDatabase.layer), Layer.orDie)

layer(services, { timeout: "5 minutes" })("marginctl store cancel-write-back", (it) => {
  it.effect(
    "an admin cancels a pending write-back once; an approver may not; an unknown one is not found",
    () =>
      Effect.gen(function* () {
        const workspace = yield* seedWorkspace({ plan: "max" })
        const admin = yield* seedUser()
        const approver = yield* seedUser()
        yield* MembershipRepository.use((memberships) =>
          Effect.all([
            memberships.upsert({ workspaceId: workspace.id, userId: admin.id, role: "admin" }),
            memberships.upsert({ workspaceId: workspace.id, userId: approver.id, role: "approver" })
          ])
        )
        const run = yield* seedRun(workspace.id)
        const recommendation = yield* seedRecommendation(run, yield* seedItem(workspace.id, { sku: "CW-1" }), {
          status: "approved"
        })
        const cancelOf = (recommendationId: string, by: string, ...more: ReadonlyArray<string>) =>
          marginctlOnTestDatabase(
            "store",
            "cancel-write-back",
            "--workspace",
            workspace.id,
            "--recommendation",
            recommendationId,
            "--by",
            by,
            ...more
          )
        const writeBack = yield* newWriteBack(recommendation)
        yield* WriteBackOutbox.use((outbox) => outbox.enqueue(writeBack))
        const cancel = (by: string, ...more: ReadonlyArray<string>) => cancelOf(recommendation.id, by, ...more)

        assertFailed(
          yield* cancel(approver.id),
          /has the role approver: cancelling a write-back needs an admin or the owner/,
          1
        )
        const done = jsonOf(yield* cancel(admin.id, "--json"))
        assert.deepStrictEqual([done.status, done.idempotent], ["write_back_failed", false])
        const row = yield* WriteBackOutbox.use((outbox) => outbox.getByRecommendation(workspace.id, recommendation.id))
        assert.deepStrictEqual(
          Option.map(row, (stored) => [stored.status, stored.lastError]),
          Option.some(["failed", `cancelled by user:${admin.id}`])
        )
        const sql = yield* SqlClient.SqlClient
        const events = yield* sql<{ readonly action: string; readonly actor: string }>`
          SELECT action, actor FROM audit_events WHERE workspace_id = ${workspace.id} ORDER BY at, id`
        assert.deepStrictEqual(
          events.map((event) => [event.action, event.actor]),
          [
            ["write_back.cancel", `user:${admin.id}`],
            ["recommendation.write_back_failed", `user:${admin.id}`]
          ]
        )
        const again = jsonOf(yield* cancel(admin.id, "--json"))
        assert.isTrue(again.idempotent)
        assertFailed(yield* cancelOf("rec_nothing", admin.id), /write-back of recommendation rec_nothing/, 3)
      }),
    processTimeout
  )
})
