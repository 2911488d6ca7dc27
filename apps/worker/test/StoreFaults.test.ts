import { assert, describe, it } from "@effect/vitest"
import type { WorkspaceId } from "@margin/core/kernel/Ids"
import type { Recommendation } from "@margin/core/recommendations/Recommendation"
import type { WriteBack } from "@margin/core/writeback/WriteBack"
import { eventually } from "@margin/jobs/testing/Eventually"
import { PgSandboxStore } from "@margin/postgres"
import {
  approveWithoutDelivery,
  openAlertKinds,
  recommendationOf,
  seedApprovalWorkspace,
  seedPendingRecommendations,
  writeBackOf
} from "@margin/runtime/testing/ApprovalWorld"
import { startWorker } from "@margin/runtime/testing/ChildProcesses"
import * as ScratchDatabase from "@margin/runtime/testing/ScratchDatabase"
import { FakeShopify, fakeShop } from "@margin/stores/testing/FakeShopify"
import { Duration, Effect } from "effect"

/** A worker on the test database with fast polling and short backoff, plus `env`. */
const worker = (name: string, env: Readonly<Record<string, string>>) =>
  Effect.gen(function* () {
    const database = yield* ScratchDatabase.ScratchDatabase
    return yield* startWorker(name, {
      DATABASE_URL: database.url,
      OUTBOX_POLL_INTERVAL: "50 millis",
      WRITE_BACK_RETRY_BASE: "100 millis",
      WRITE_BACK_RETRY_MAX: "400 millis",
      ...env
    })
  })

/** One recommendation of a fresh sandbox workspace, approved: its write-back waits in the outbox. */
const approvedOne = Effect.gen(function* () {
  const { workspaceId } = yield* seedApprovalWorkspace()
  const [recommendation] = yield* seedPendingRecommendations(workspaceId, 1)
  if (recommendation === undefined) return yield* Effect.die("seeded no recommendation")
  yield* approveWithoutDelivery(workspaceId, recommendation.id)
  return { workspaceId, recommendation }
})

/** Waits until the write-back of `recommendation` is settled (applied or failed); answers the row. */
const settled = (workspaceId: WorkspaceId, recommendation: Recommendation) =>
  Effect.andThen(
    eventually(
      Effect.map(
        writeBackOf(workspaceId, recommendation.id),
        (writeBack) => writeBack.status === "applied" || writeBack.status === "failed"
      ),
      "the write-back settled",
      { within: Duration.seconds(30), every: Duration.millis(100) }
    ),
    writeBackOf(workspaceId, recommendation.id)
  )

const onFreshDatabase = <A, E, R>(test: Effect.Effect<A, E, R>) =>
  test.pipe(Effect.scoped, Effect.provide(ScratchDatabase.layer))

const assertSettledAs = (writeBack: WriteBack, status: WriteBack["status"], attempts: number) => {
  assert.strictEqual(writeBack.status, status, JSON.stringify(writeBack))
  assert.strictEqual(writeBack.attempts, attempts, JSON.stringify(writeBack))
}

describe("write-back delivery when the store misbehaves (worker processes on PostgreSQL)", () => {
  it.live(
    "the sandbox store is unavailable for the first 3 attempts: delivered once it recovers, written once",
    () =>
      onFreshDatabase(
        Effect.gen(function* () {
          const { workspaceId, recommendation } = yield* approvedOne
          yield* worker("worker-store-down", { SANDBOX_FAIL_FIRST: "3", WRITE_BACK_MAX_ATTEMPTS: "5" })
          const writeBack = yield* settled(workspaceId, recommendation)
          assertSettledAs(writeBack, "applied", 4)
          assert.match(writeBack.lastError ?? "", /SANDBOX_FAIL_FIRST=3/, "the last failure is kept for the operator")
          assert.strictEqual((yield* PgSandboxStore.listWrites(workspaceId)).length, 1)
          assert.strictEqual((yield* recommendationOf(workspaceId, recommendation.id)).status, "applied")
        })
      ),
    { timeout: 120_000 }
  )

  it.live(
    "the store stays unavailable: after the attempt limit the write-back fails with an alert and nothing is written",
    () =>
      onFreshDatabase(
        Effect.gen(function* () {
          const { workspaceId, recommendation } = yield* approvedOne
          yield* worker("worker-store-gone", { SANDBOX_FAIL_FIRST: "1000", WRITE_BACK_MAX_ATTEMPTS: "3" })
          const writeBack = yield* settled(workspaceId, recommendation)
          assertSettledAs(writeBack, "failed", 3)
          assert.strictEqual((yield* recommendationOf(workspaceId, recommendation.id)).status, "write_back_failed")
          assert.deepStrictEqual(yield* openAlertKinds(workspaceId), ["write_back_failed"])
          assert.strictEqual((yield* PgSandboxStore.listWrites(workspaceId)).length, 0)
        })
      ),
    { timeout: 120_000 }
  )

  it.live(
    "someone changed the store price before delivery: no write, a price_drift alert, their price stands",
    () =>
      onFreshDatabase(
        Effect.gen(function* () {
          const { workspaceId, recommendation } = yield* approvedOne
          const variant = `var-${recommendation.sku}`
          yield* PgSandboxStore.setPriceBehindOurBack(workspaceId, variant, 1049)
          yield* worker("worker-drift", {})
          const writeBack = yield* settled(workspaceId, recommendation)
          assertSettledAs(writeBack, "failed", 1)
          assert.strictEqual((yield* recommendationOf(workspaceId, recommendation.id)).status, "write_back_failed")
          assert.deepStrictEqual(yield* openAlertKinds(workspaceId), ["price_drift"])
          assert.strictEqual((yield* PgSandboxStore.listWrites(workspaceId)).length, 0)
          assert.strictEqual(yield* PgSandboxStore.sandboxPrice(workspaceId, variant), 1049)
        })
      ),
    { timeout: 120_000 }
  )

  it.live(
    "Shopify answers 503, then takes the write but times out: delivered on the next attempt without a second write",
    () =>
      onFreshDatabase(
        Effect.gen(function* () {
          const fake = yield* FakeShopify
          const variant = "gid://shopify/ProductVariant/4401"
          yield* fake.setVariant(variant, { productId: "gid://shopify/Product/44", price: "10.00" })
          const { workspaceId } = yield* seedApprovalWorkspace({
            platform: "shopify",
            shop: fakeShop,
            credentials: fake.options.accessToken
          })
          const [recommendation] = yield* seedPendingRecommendations(workspaceId, 1, {
            variantRef: () => variant,
            sandbox: false
          })
          if (recommendation === undefined) return yield* Effect.die("seeded no recommendation")
          yield* approveWithoutDelivery(workspaceId, recommendation.id)
          yield* fake.failNext({ _tag: "Status", status: 503 }, { times: 1, operation: "read" })
          yield* fake.failNext({ _tag: "HangAfterExecuting" }, { times: 1, operation: "write" })

          yield* worker("worker-shopify", {
            SHOPIFY_BASE_URL: fake.url,
            // Long enough that no answered call is cut on a loaded machine: only the hanging write times out.
            SHOPIFY_REQUEST_TIMEOUT: "3 seconds",
            WRITE_BACK_MAX_ATTEMPTS: "5"
          })
          const writeBack = yield* settled(workspaceId, recommendation)
          // 1: the read answers 503; 2: the write lands but never answers; 3: the read finds the new price.
          assertSettledAs(writeBack, "applied", 3)
          assert.deepStrictEqual(yield* fake.writes, [{ variantId: variant, price: "10.99" }])
          assert.strictEqual(yield* fake.price(variant), "10.99")
          assert.strictEqual((yield* recommendationOf(workspaceId, recommendation.id)).status, "applied")
        }).pipe(Effect.provide(FakeShopify.layer()))
      ),
    { timeout: 120_000 }
  )
})
