import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { DeletionRequestId, SupportSessionId, WorkspaceId } from "../kernel/Ids.ts"
import { Runs } from "../runs/Runs.ts"
import { seedItem, seedUser, seedWorkspace, tokenActor, useCases, userA, userB, wsA, wsB } from "../testing/UseCases.ts"
import { DeletionRequestRepository } from "./DeletionRequestRepository.ts"
import { SupportSessionRepository } from "./SupportSessionRepository.ts"
import { WorkspaceStatus } from "./WorkspaceStatus.ts"

const march15 = Date.parse("2025-03-15T12:00:00Z")
const hour = 3_600_000

const openSession = (workspaceId: WorkspaceId, id: string, startedAt: number, expiresAt: number) =>
  SupportSessionRepository.use((sessions) =>
    sessions.open({
      id: SupportSessionId.make(id),
      workspaceId,
      adminEmail: "support@margin.example",
      startedAt,
      expiresAt,
      closedAt: null
    })
  )

const requestDeletion = (id: string, userId: typeof userA, state: "pending" | "blocked" | "done") =>
  DeletionRequestRepository.use((deletions) =>
    deletions.insert({
      id: DeletionRequestId.make(id),
      userId,
      state,
      scheduledAt: march15,
      effectiveAt: march15 + 30 * 24 * hour
    })
  )

describe("WorkspaceStatus", () => {
  it.effect("lifecycle and this month's usage against the plan's limits", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "free")
      yield* seedUser(userA, true)
      yield* seedItem(wsA, { sku: "A", price: 1000, cost: 500 })
      yield* seedItem(wsA, { sku: "B", price: 1000, cost: 500 })
      const runs = yield* Runs
      yield* TestClock.setTime(Date.parse("2025-02-20T00:00:00Z"))
      yield* runs.trigger(wsA, [], "api", tokenActor)
      yield* TestClock.setTime(march15)
      yield* runs.trigger(wsA, [], "api", tokenActor)
      const status = yield* (yield* WorkspaceStatus).read(wsA, userA)
      assert.deepStrictEqual(status, {
        lifecycle: { state: "active", plan: "free", createdAt: 0, trialEndsAt: null },
        usage: {
          periodStart: Date.parse("2025-03-01T00:00:00Z"),
          periodEnd: Date.parse("2025-04-01T00:00:00Z"),
          runsUsed: 1,
          runsLimit: 10,
          catalogItems: 2,
          catalogItemsLimit: 1_000
        },
        supportAccess: null,
        accountDeletion: null
      })
    }).pipe(Effect.provide(useCases))
  )

  it.effect("unlimited plans say null", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "enterprise")
      const { usage } = yield* (yield* WorkspaceStatus).read(wsA, null)
      assert.deepStrictEqual([usage.runsLimit, usage.catalogItemsLimit], [null, null])
    }).pipe(Effect.provide(useCases))
  )

  it.effect("support access shows only a session open against this workspace now", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "max")
      yield* seedWorkspace(wsB, "max")
      yield* TestClock.setTime(march15)
      const status = yield* WorkspaceStatus
      yield* openSession(wsB, "sup_b", march15 - hour, march15 + hour)
      yield* openSession(wsA, "sup_old", march15 - 3 * hour, march15 - 2 * hour)
      assert.isNull((yield* status.read(wsA, null)).supportAccess)
      yield* openSession(wsA, "sup_a", march15 - hour, march15 + hour)
      assert.deepStrictEqual((yield* status.read(wsA, null)).supportAccess, {
        active: true,
        adminEmail: "support@margin.example",
        startedAt: march15 - hour,
        expiresAt: march15 + hour
      })
      yield* TestClock.setTime(march15 + hour)
      assert.isNull((yield* status.read(wsA, null)).supportAccess)
    }).pipe(Effect.provide(useCases))
  )

  it.effect("account deletion shows only the calling user's pending or blocked request", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "max")
      yield* TestClock.setTime(march15)
      const status = yield* WorkspaceStatus
      yield* requestDeletion("del_b", userB, "pending")
      assert.isNull((yield* status.read(wsA, userA)).accountDeletion)
      assert.isNull((yield* status.read(wsA, null)).accountDeletion)
      assert.deepStrictEqual((yield* status.read(wsA, userB)).accountDeletion, {
        scheduledAt: march15,
        effectiveAt: march15 + 30 * 24 * hour
      })
      yield* requestDeletion("del_a", userA, "done")
      assert.isNull((yield* status.read(wsA, userA)).accountDeletion)
    }).pipe(Effect.provide(useCases))
  )

  it.effect("an unknown workspace is not found", () =>
    Effect.gen(function* () {
      const failure = yield* Effect.flip((yield* WorkspaceStatus).read(WorkspaceId.make("ws_nope"), null))
      assert.strictEqual(failure._tag, "ResourceNotFound")
    }).pipe(Effect.provide(useCases))
  )
})
