import { assert, describe, it } from "@effect/vitest"
import { RepositoryError } from "@margin/core/kernel/Errors"
import { MemoryStore } from "@margin/core/memory/MemoryStore"
import { Recommendations } from "@margin/core/recommendations/Recommendations"
import { aWriteBack } from "@margin/core/testing/Fixtures"
import {
  connectStore,
  seedItem,
  seedRecommendation,
  seedWorkspace,
  sessionActor,
  tokenActor,
  useCases,
  wsA
} from "@margin/core/testing/UseCases"
import { type DeliveryReport, WriteBackDelivery } from "@margin/core/writeback/WriteBackDelivery"
import { ConfigProvider, Duration, Effect, Exit, Layer, Logger, Ref, References, Scope } from "effect"
import * as OutboxWorker from "./OutboxWorker.ts"
import { eventually } from "./testing/Eventually.ts"

const options = (overrides: Partial<OutboxWorker.OutboxWorkerOptions> = {}): OutboxWorker.OutboxWorkerOptions => ({
  ...OutboxWorker.defaultOutboxWorkerOptions,
  concurrency: 1,
  pollInterval: Duration.millis(10),
  maxErrorBackoff: Duration.millis(40),
  drainTimeout: Duration.seconds(2),
  ...overrides
})

/** `count` recommendations approved (their write-backs due in the outbox), none delivered yet. */
const approveMany = (count: number) =>
  Effect.gen(function* () {
    yield* seedWorkspace(wsA, "max")
    yield* connectStore(wsA)
    const recommendations = yield* Recommendations
    for (let index = 0; index < count; index++) {
      const item = yield* seedItem(wsA, { sku: `S${index}`, price: 1000, cost: 700 })
      const recommendation = yield* seedRecommendation(item, 1099)
      yield* recommendations.accept(wsA, recommendation.id, tokenActor)
      yield* recommendations.approve(wsA, recommendation.id, sessionActor, "approver")
    }
  })

/** Starts the worker in a scope of its own, so a test can stop it as a shutdown would; its logs go nowhere. */
const startWorker = <R>(layer: Layer.Layer<never, never, R>) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    yield* Layer.buildWithScope(layer.pipe(Layer.provide(Logger.layer([]))), scope)
    return { stop: Scope.close(scope, Exit.void) }
  })

const storeWrites = MemoryStore.use((store) => store.writes)

/** A delivery whose claims are scripted: each call takes the next step (and the last one forever). */
const scriptedDelivery = (steps: ReadonlyArray<Effect.Effect<ReadonlyArray<DeliveryReport>, RepositoryError>>) =>
  Effect.gen(function* () {
    const calls = yield* Ref.make(0)
    const layer = Layer.succeed(
      WriteBackDelivery,
      WriteBackDelivery.of({
        deliverOne: (writeBack) => Effect.succeed({ writeBack, outcome: "not_claimed" }),
        deliverDue: () =>
          Effect.flatMap(
            Ref.getAndUpdate(calls, (n) => n + 1),
            (n) => steps[Math.min(n, steps.length - 1)] ?? Effect.succeed([])
          )
      })
    )
    return { layer, calls: Ref.get(calls) }
  })

describe("OutboxWorker", () => {
  it.live("delivers every due write-back once, and the recommendations end applied", () =>
    Effect.gen(function* () {
      yield* approveMany(5)
      const worker = yield* startWorker(OutboxWorker.layerWith(options({ concurrency: 3, batchSize: 2 })))
      yield* eventually(
        Effect.map(storeWrites, (writes) => writes.length === 5),
        "five store writes"
      )
      const page = yield* Recommendations.use((r) =>
        r.list(wsA, { status: "applied", runId: null }, { limit: 50, cursor: null })
      )
      assert.strictEqual(page.items.length, 5)
      yield* worker.stop
      assert.strictEqual((yield* storeWrites).length, 5)
    }).pipe(Effect.provide(useCases))
  )

  it.live("with a concurrency of 0 the process delivers nothing", () =>
    Effect.gen(function* () {
      const { layer, calls } = yield* scriptedDelivery([Effect.succeed([])])
      const worker = yield* startWorker(OutboxWorker.layerWith(options({ concurrency: 0 })).pipe(Layer.provide(layer)))
      yield* Effect.sleep(Duration.millis(100))
      yield* worker.stop
      assert.strictEqual(yield* calls, 0)
    })
  )

  it.live("claims again at once after a full batch, and waits the poll interval after a partial one", () =>
    Effect.gen(function* () {
      yield* approveMany(5)
      // With an hour between polls, only back-to-back claims of full batches (2, 2, then 1) deliver all five.
      const worker = yield* startWorker(
        OutboxWorker.layerWith(options({ batchSize: 2, pollInterval: Duration.hours(1) }))
      )
      yield* eventually(
        Effect.map(storeWrites, (writes) => writes.length === 5),
        "five store writes",
        {
          within: Duration.seconds(2)
        }
      )
      yield* worker.stop
    }).pipe(Effect.provide(useCases))
  )

  it.live("lives on through failed claims and defects, pausing longer while they last", () =>
    Effect.gen(function* () {
      const failed = Effect.fail(
        new RepositoryError({ operation: "WriteBackOutbox.claimDue", message: "connection lost" })
      )
      const { layer, calls } = yield* scriptedDelivery([failed, failed, Effect.die("a bug"), Effect.succeed([])])
      const worker = yield* startWorker(OutboxWorker.layerWith(options()).pipe(Layer.provide(layer)))
      // Two failures (20 ms, 40 ms pauses), a defect (40 ms, capped), then regular 10 ms polls.
      yield* eventually(
        Effect.map(calls, (n) => n >= 6),
        "six claims"
      )
      yield* worker.stop
    })
  )

  it.live("a stop lets the delivery in progress finish, then ends the loops", () =>
    Effect.gen(function* () {
      const finished = yield* Ref.make(false)
      const slow = Effect.as(Effect.andThen(Effect.sleep(Duration.millis(200)), Ref.set(finished, true)), [])
      const { layer, calls } = yield* scriptedDelivery([slow, Effect.succeed([])])
      const worker = yield* startWorker(OutboxWorker.layerWith(options()).pipe(Layer.provide(layer)))
      yield* eventually(
        Effect.map(calls, (n) => n === 1),
        "the first claim"
      )
      yield* worker.stop
      assert.isTrue(yield* Ref.get(finished), "the round in progress completed")
      assert.strictEqual(yield* calls, 1, "no round started after the stop")
    })
  )

  it.live("a stop interrupts a delivery that outlasts the drain timeout", () =>
    Effect.gen(function* () {
      const finished = yield* Ref.make(false)
      const stuck = Effect.as(Effect.andThen(Effect.sleep(Duration.minutes(5)), Ref.set(finished, true)), [])
      const { layer, calls } = yield* scriptedDelivery([stuck])
      const worker = yield* startWorker(
        OutboxWorker.layerWith(options({ drainTimeout: Duration.millis(50) })).pipe(Layer.provide(layer))
      )
      yield* eventually(
        Effect.map(calls, (n) => n === 1),
        "the first claim"
      )
      const stopped = yield* Effect.timeoutOption(worker.stop, Duration.seconds(2))
      assert.strictEqual(stopped._tag, "Some", "the stop did not wait for the stuck delivery")
      assert.isFalse(yield* Ref.get(finished))
    })
  )

  it.live("logs one line per delivery with its ids, attempt and outcome", () =>
    Effect.gen(function* () {
      const lines: Array<{ readonly message: unknown; readonly level: string; readonly annotations: object }> = []
      const capture = Logger.make((entry) => {
        lines.push({
          message: entry.message,
          level: entry.logLevel,
          annotations: { ...entry.fiber.getRef(References.CurrentLogAnnotations) }
        })
      })
      const writeBack = aWriteBack({ attempts: 8 })
      const { layer, calls } = yield* scriptedDelivery([
        Effect.succeed([{ writeBack, outcome: "gave_up" }]),
        Effect.succeed([])
      ])
      const worker = yield* startWorker(
        OutboxWorker.layerWith(options()).pipe(Layer.provide([layer, Logger.layer([capture])]))
      )
      yield* eventually(
        Effect.map(calls, (n) => n >= 2),
        "two claims"
      )
      yield* worker.stop
      const line = lines.find((entry) => String(entry.message) === "write-back gave_up")
      assert.isDefined(line)
      assert.strictEqual(line?.level, "Error")
      assert.deepInclude(line?.annotations, {
        job: "outbox",
        writeBack: writeBack.id,
        workspace: writeBack.workspaceId,
        recommendation: writeBack.recommendationId,
        attempt: 8,
        outcome: "gave_up"
      })
      assert.isTrue(lines.some((entry) => String(entry.message) === "outbox worker stopped"))
    })
  )

  it.effect("OUTBOX_CONCURRENCY may be 0 (no loops in this process), not negative", () =>
    Effect.gen(function* () {
      const none = yield* OutboxWorker.outboxWorkerConfig.pipe(
        Effect.provideService(
          ConfigProvider.ConfigProvider,
          ConfigProvider.fromEnv({ env: { OUTBOX_CONCURRENCY: "0", OUTBOX_BATCH_SIZE: "5" } })
        )
      )
      assert.strictEqual(none.concurrency, 0)
      assert.strictEqual(none.batchSize, 5)
      const exit = yield* Effect.exit(
        OutboxWorker.outboxWorkerConfig.pipe(
          Effect.provideService(
            ConfigProvider.ConfigProvider,
            ConfigProvider.fromEnv({ env: { OUTBOX_CONCURRENCY: "-1" } })
          )
        )
      )
      assert.isTrue(Exit.isFailure(exit))
    })
  )
})
