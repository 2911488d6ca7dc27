import { assert, describe, it } from "@effect/vitest"
import { DatabaseConfigError } from "@margin/postgres"
import { Cause, ConfigProvider, Effect, Exit } from "effect"
import { serverConfig } from "../config/ServerConfig.ts"
import { describeStartFailure } from "./StartupFailure.ts"

const causeOf = (env: Record<string, string>) => Effect.exit(serverConfig.parse(ConfigProvider.fromEnv({ env })))

describe("ServerConfig and StartupFailure", () => {
  it.effect("defaults: port 8787 on 127.0.0.1, 60 requests a minute, 1 MiB bodies, no Redis", () =>
    Effect.gen(function* () {
      const exit = yield* causeOf({})
      assert.isTrue(Exit.isSuccess(exit))
      if (Exit.isSuccess(exit)) {
        assert.strictEqual(exit.value.port, 8787)
        assert.strictEqual(exit.value.host, "127.0.0.1")
        assert.strictEqual(exit.value.rateLimitPerMinute, 60)
        assert.strictEqual(exit.value.maxBodyBytes, 1024 * 1024)
        assert.isTrue(exit.value.redisUrl._tag === "None")
        assert.isNull(exit.value.publicUrl)
      }
    })
  )

  it.effect("PUBLIC_URL: its origin, the OpenAPI document's server; not a URL is named", () =>
    Effect.gen(function* () {
      const exit = yield* causeOf({ PUBLIC_URL: "https://margin.example.com/some/path" })
      assert.isTrue(Exit.isSuccess(exit) && exit.value.publicUrl === "https://margin.example.com")
      const refused = yield* causeOf({ PUBLIC_URL: "margin.example.com" })
      assert.isTrue(Exit.isFailure(refused))
      if (Exit.isFailure(refused))
        assert.match(describeStartFailure(refused.cause), /^invalid configuration: PUBLIC_URL/)
    })
  )

  it.effect("a bad setting is named with what is wrong, in one line", () =>
    Effect.gen(function* () {
      for (const [env, expected] of [
        [{ PORT: "abc" }, /^invalid configuration: PORT: /],
        [{ PORT: "70000" }, /^invalid configuration: PORT: /],
        [
          { RATE_LIMIT_PER_MINUTE: "0" },
          /^invalid configuration: RATE_LIMIT_PER_MINUTE: Expected a value greater than or equal to 1$/
        ]
      ] as const) {
        const exit = yield* causeOf(env)
        assert.isTrue(Exit.isFailure(exit))
        if (Exit.isFailure(exit)) {
          const message = describeStartFailure(exit.cause)
          assert.match(message, expected)
          assert.notInclude(message, "\n")
        }
      }
    })
  )

  it("failures written for people keep their message", () => {
    const message = "DATABASE_URL is not a URL: expected a URL like postgres://user:password@host:5432/database"
    assert.strictEqual(describeStartFailure(Cause.fail(new DatabaseConfigError({ message }))), message)
  })
})
