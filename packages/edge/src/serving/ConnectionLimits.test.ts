import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { connectionLimitsConfig, defaultConnectionLimits } from "./ConnectionLimits.ts"

const limitsFrom = (env: Record<string, string>) => connectionLimitsConfig.parse(ConfigProvider.fromEnv({ env }))

describe("ConnectionLimits", () => {
  it.effect(
    "defaults: headers in 10 s, the whole request in 30 s, 5 s idle keep-alive, 1000 requests, 1024 connections",
    () =>
      Effect.gen(function* () {
        assert.deepStrictEqual(yield* limitsFrom({}), {
          headersTimeoutMs: 10_000,
          requestTimeoutMs: 30_000,
          keepAliveTimeoutMs: 5_000,
          maxRequestsPerConnection: 1_000,
          maxConnections: 1_024
        })
        assert.deepStrictEqual(yield* limitsFrom({}), defaultConnectionLimits)
      })
  )

  it.effect("set by the environment; the headers' timeout is at most the request's", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(
        yield* limitsFrom({
          HTTP_HEADERS_TIMEOUT: "2 seconds",
          HTTP_REQUEST_TIMEOUT: "1 minute",
          HTTP_KEEP_ALIVE_TIMEOUT: "500 millis",
          HTTP_MAX_REQUESTS_PER_CONNECTION: "10",
          HTTP_MAX_CONNECTIONS: "50"
        }),
        {
          headersTimeoutMs: 2_000,
          requestTimeoutMs: 60_000,
          keepAliveTimeoutMs: 500,
          maxRequestsPerConnection: 10,
          maxConnections: 50
        }
      )
      const clamped = yield* limitsFrom({ HTTP_HEADERS_TIMEOUT: "1 minute", HTTP_REQUEST_TIMEOUT: "20 seconds" })
      assert.strictEqual(clamped.headersTimeoutMs, 20_000)
      const refused = yield* Effect.exit(limitsFrom({ HTTP_MAX_CONNECTIONS: "0" }))
      assert.strictEqual(refused._tag, "Failure")
    })
  )
})
