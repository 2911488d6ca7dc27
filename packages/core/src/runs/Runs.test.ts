import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { RunId } from "../kernel/Ids.ts"
import {
  auditOf,
  seedItem,
  seedUser,
  seedWorkspace,
  sessionActor,
  systemActor,
  tokenActor,
  useCases,
  userA,
  userB,
  wsA,
  wsB
} from "../testing/UseCases.ts"
import * as RunMachine from "./RunMachine.ts"
import { RunRepository } from "./RunRepository.ts"
import { Runs } from "./Runs.ts"

const march15 = Date.parse("2025-03-15T12:00:00Z")
const april1 = Date.parse("2025-04-01T00:00:00Z")

const setup = (plan: "free" | "max") =>
  Effect.gen(function* () {
    yield* seedWorkspace(wsA, plan)
    yield* seedUser(userA, true)
    yield* seedUser(userB, false)
    yield* TestClock.setTime(march15)
  })

describe("Runs.trigger with an idempotency key", () => {
  const day = 24 * 60 * 60 * 1000

  it.effect("the same key and tags within 24 hours answer the first run and queue nothing more", () =>
    Effect.gen(function* () {
      yield* setup("max")
      const runs = yield* Runs
      const first = yield* runs.trigger(wsA, ["summer"], "api", tokenActor, { idempotencyKey: "k-1" })
      yield* TestClock.adjust(day - 1)
      // Through the other door too: the keys are the workspace's.
      const again = yield* runs.trigger(wsA, ["summer"], "mcp", tokenActor, { idempotencyKey: "k-1" })
      assert.strictEqual(again.id, first.id)
      assert.deepStrictEqual(
        (yield* auditOf(wsA)).map((event) => event.action),
        ["run.trigger"]
      )
      // Another key, or none, is another request.
      assert.notStrictEqual(
        (yield* runs.trigger(wsA, ["summer"], "api", tokenActor, { idempotencyKey: "k-2" })).id,
        first.id
      )
      assert.notStrictEqual((yield* runs.trigger(wsA, ["summer"], "api", tokenActor)).id, first.id)
    }).pipe(Effect.provide(useCases))
  )

  it.effect("the same key with other tags is refused at Idempotency-Key, and queues nothing", () =>
    Effect.gen(function* () {
      yield* setup("max")
      const runs = yield* Runs
      yield* runs.trigger(wsA, ["summer"], "api", tokenActor, { idempotencyKey: "k-1" })
      const refused = yield* Effect.flip(runs.trigger(wsA, ["winter"], "api", tokenActor, { idempotencyKey: "k-1" }))
      assert.deepInclude(refused, { _tag: "InvalidInput", path: "Idempotency-Key" })
      assert.strictEqual((yield* auditOf(wsA)).length, 1)
    }).pipe(Effect.provide(useCases))
  )

  it.effect("keys are per workspace, and name nothing after 24 hours", () =>
    Effect.gen(function* () {
      yield* setup("max")
      yield* seedWorkspace(wsB, "max")
      const runs = yield* Runs
      const first = yield* runs.trigger(wsA, [], "api", tokenActor, { idempotencyKey: "k-1" })
      assert.notStrictEqual((yield* runs.trigger(wsB, [], "api", systemActor, { idempotencyKey: "k-1" })).id, first.id)
      yield* TestClock.adjust(day + 1)
      const later = yield* runs.trigger(wsA, ["winter"], "api", tokenActor, { idempotencyKey: "k-1" })
      assert.notStrictEqual(later.id, first.id)
      // The key now names the later run.
      assert.strictEqual(
        (yield* runs.trigger(wsA, ["winter"], "api", tokenActor, { idempotencyKey: "k-1" })).id,
        later.id
      )
    }).pipe(Effect.provide(useCases))
  )

  it.effect("a refused trigger records no key: its repeat is tried again", () =>
    Effect.gen(function* () {
      yield* setup("max")
      const runs = yield* Runs
      const refused = yield* Effect.flip(runs.trigger(wsA, [], "api", sessionActor, { idempotencyKey: "k-1" }))
      assert.strictEqual(refused._tag, "EmailNotConfirmed")
      assert.strictEqual(
        (yield* runs.trigger(wsA, ["x"], "api", tokenActor, { idempotencyKey: "k-1" })).status,
        "queued"
      )
    }).pipe(Effect.provide(useCases))
  )
})

describe("Runs", () => {
  it.effect("trigger queues a run for the subset, audited", () =>
    Effect.gen(function* () {
      yield* setup("free")
      const runs = yield* Runs
      const run = yield* runs.trigger(wsA, ["summer"], "api", tokenActor)
      assert.deepStrictEqual(
        [run.status, run.subsetTags, run.trigger, run.requestedBy, run.createdAt],
        ["queued", ["summer"], "api", "token:tok_a", march15]
      )
      assert.deepStrictEqual(yield* runs.get(wsA, run.id), run)
      assert.deepStrictEqual(
        (yield* auditOf(wsA)).map((event) => [event.action, event.resourceId, event.afterStatus]),
        [["run.trigger", run.id, "queued"]]
      )
    }).pipe(Effect.provide(useCases))
  )

  it.effect("a user whose e-mail is not confirmed cannot trigger; a system actor has no e-mail to confirm", () =>
    Effect.gen(function* () {
      yield* setup("free")
      const runs = yield* Runs
      const refused = yield* Effect.flip(runs.trigger(wsA, [], "api", sessionActor))
      assert.strictEqual(refused._tag, "EmailNotConfirmed")
      assert.strictEqual((yield* runs.trigger(wsA, [], "cli", systemActor)).status, "queued")
    }).pipe(Effect.provide(useCases))
  )

  it.effect("the free plan's 10 runs a month: the 11th is refused until the next UTC month", () =>
    Effect.gen(function* () {
      yield* setup("free")
      const runs = yield* Runs
      // A run of the previous month does not count.
      yield* TestClock.setTime(march15 - 20 * 86_400_000)
      yield* runs.trigger(wsA, [], "api", tokenActor)
      yield* TestClock.setTime(march15)
      for (let n = 0; n < 10; n++) yield* runs.trigger(wsA, [], "api", tokenActor)
      const refused = yield* Effect.flip(runs.trigger(wsA, [], "api", tokenActor))
      assert.deepStrictEqual(
        refused._tag === "PlanLimitExceeded" ? [refused.limit, refused.allowed, refused.used] : refused._tag,
        ["runs_per_month", 10, 10]
      )
      yield* TestClock.setTime(april1)
      assert.strictEqual((yield* runs.trigger(wsA, [], "api", tokenActor)).status, "queued")
    }).pipe(Effect.provide(useCases))
  )

  it.effect("a catalog larger than the plan allows is refused", () =>
    Effect.gen(function* () {
      yield* setup("free")
      for (let n = 0; n <= 1_000; n++) yield* seedItem(wsA, { sku: `S${n}`, price: 1000, cost: 500 })
      const refused = yield* Effect.flip((yield* Runs).trigger(wsA, [], "api", tokenActor))
      assert.deepStrictEqual(
        refused._tag === "PlanLimitExceeded" ? [refused.limit, refused.allowed, refused.used] : refused._tag,
        ["catalog_items", 1_000, 1_001]
      )
    }).pipe(Effect.provide(useCases))
  )

  it.effect("max has no monthly cap", () =>
    Effect.gen(function* () {
      yield* setup("max")
      const runs = yield* Runs
      for (let n = 0; n < 12; n++) yield* runs.trigger(wsA, [], "api", tokenActor)
      const listed = yield* runs.list(wsA, { status: "queued" }, { limit: 50, cursor: null })
      assert.strictEqual(listed.items.length, 12)
    }).pipe(Effect.provide(useCases))
  )

  it.effect("cancel a queued run, repeat it idempotently; a running run cannot be cancelled", () =>
    Effect.gen(function* () {
      yield* setup("max")
      const runs = yield* Runs
      const queued = yield* runs.trigger(wsA, [], "api", tokenActor)
      const cancelled = yield* runs.cancel(wsA, queued.id, tokenActor)
      assert.deepStrictEqual(
        [cancelled.idempotent, cancelled.run.status, cancelled.run.finishedAt],
        [false, "cancelled", march15]
      )
      assert.isTrue((yield* runs.cancel(wsA, queued.id, tokenActor)).idempotent)
      const other = yield* runs.trigger(wsA, [], "api", tokenActor)
      yield* RunRepository.use((repository) =>
        repository.update(wsA, other.id, (run) => RunMachine.decide(run, RunMachine.start, march15))
      )
      const conflict = yield* Effect.flip(runs.cancel(wsA, other.id, tokenActor))
      assert.strictEqual(conflict._tag, "TransitionConflict")
    }).pipe(Effect.provide(useCases))
  )

  it.effect("another workspace's run is not found", () =>
    Effect.gen(function* () {
      yield* setup("max")
      yield* seedWorkspace(wsB, "max")
      const runs = yield* Runs
      const run = yield* runs.trigger(wsA, [], "api", tokenActor)
      const failures = yield* Effect.all([
        Effect.flip(runs.get(wsB, run.id)),
        Effect.flip(runs.cancel(wsB, run.id, tokenActor)),
        Effect.flip(runs.get(wsA, RunId.make("run_missing")))
      ])
      assert.deepStrictEqual(
        failures.map((failure) => failure._tag),
        Array(3).fill("ResourceNotFound")
      )
    }).pipe(Effect.provide(useCases))
  )
})
