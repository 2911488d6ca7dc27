import { assert, describe, it } from "@effect/vitest"
import { defaultDeliveryConfig } from "@margin/core/writeback/WriteBackDelivery"
import { ConfigProvider, Effect, Exit } from "effect"
import { deliveryConfig } from "./DeliverySettings.ts"

const withEnv = (env: Record<string, string>) =>
  Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))

describe("DeliverySettings", () => {
  it.effect("without settings, the core defaults", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* deliveryConfig.pipe(withEnv({})), defaultDeliveryConfig)
    })
  )

  it.effect("reads attempts, backoff and lease from WRITE_BACK_*", () =>
    Effect.gen(function* () {
      const config = yield* deliveryConfig.pipe(
        withEnv({
          WRITE_BACK_MAX_ATTEMPTS: "3",
          WRITE_BACK_RETRY_BASE: "250 millis",
          WRITE_BACK_RETRY_MAX: "1 minute",
          WRITE_BACK_LEASE: "2 seconds"
        })
      )
      assert.deepStrictEqual(config, { maxAttempts: 3, baseDelayMs: 250, maxDelayMs: 60_000, leaseMs: 2_000 })
    })
  )

  it.effect("refuses zero attempts, a zero lease and words that are no duration", () =>
    Effect.gen(function* () {
      for (const env of [
        { WRITE_BACK_MAX_ATTEMPTS: "0" },
        { WRITE_BACK_LEASE: "0 seconds" },
        { WRITE_BACK_RETRY_BASE: "soon" }
      ]) {
        const exit = yield* Effect.exit(deliveryConfig.pipe(withEnv(env)))
        assert.isTrue(Exit.isFailure(exit), JSON.stringify(env))
      }
    })
  )
})
