import { assert, describe, it } from "@effect/vitest"
import * as MemoryAdapters from "@margin/core/memory/MemoryAdapters"
import { AuthorizationCodeRepository } from "@margin/core/oauth/AuthorizationCodeRepository"
import { LoginLinkRepository } from "@margin/core/oauth/LoginLinkRepository"
import { OAuthClientRepository } from "@margin/core/oauth/OAuthClientRepository"
import { OAuthGrantRepository } from "@margin/core/oauth/OAuthGrantRepository"
import { hourMs, minuteMs } from "@margin/core/testing/Fixtures"
import {
  anAuthorizationCode,
  anOAuthToken,
  hashOf,
  seedGrant,
  seedOAuthClient
} from "@margin/core/testing/OAuthFixtures"
import { Clock, ConfigProvider, Duration, Effect, Exit, Layer, Logger, Option, References, Scope } from "effect"
import * as OAuthCleanupWorker from "./OAuthCleanupWorker.ts"
import { eventually } from "./testing/Eventually.ts"

/** The log lines of the worker: message and annotations. */
const lines: Array<{ readonly message: string; readonly annotations: Readonly<Record<string, unknown>> }> = []
const capture = Logger.make<unknown, void>(({ message, fiber }) => {
  lines.push({
    message: Array.isArray(message) ? message.map(String).join(" ") : String(message),
    annotations: { ...fiber.getRef(References.CurrentLogAnnotations) }
  })
})
const logging = Layer.merge(Logger.layer([capture]), Layer.succeed(References.MinimumLogLevel, "Info"))

describe("OAuthCleanupWorker", () => {
  it.live(
    "deletes expired codes, dead tokens, expired links and unused old clients at start, keeps live ones, logs the counts",
    () =>
      Effect.gen(function* () {
        const codes = yield* AuthorizationCodeRepository
        const grants = yield* OAuthGrantRepository
        const links = yield* LoginLinkRepository
        const now = yield* Clock.currentTimeMillis
        const grant = yield* seedGrant()
        const code = (expiresAt: number) =>
          anAuthorizationCode({ grantId: grant.id, clientId: grant.clientId, createdAt: now - hourMs, expiresAt })
        yield* codes.insert(hashOf(grant.id, "e"), code(now - minuteMs))
        yield* codes.insert(hashOf(grant.id, "l"), code(now + hourMs))
        const token = (expiresAt: number) => anOAuthToken({ grantId: grant.id, createdAt: now - hourMs, expiresAt })
        yield* grants.insertToken(hashOf(grant.id, "x"), token(now - minuteMs))
        yield* grants.insertToken(hashOf(grant.id, "t"), token(now + hourMs))
        yield* links.use(hashOf(grant.id, "k"), now - minuteMs, now - hourMs)
        yield* links.use(hashOf(grant.id, "n"), now + hourMs, now - minuteMs)
        // Registered two days ago and never consented to: expired. Registered now: kept for its day.
        const abandoned = yield* seedOAuthClient({ createdAt: now - 48 * hourMs })
        const fresh = yield* seedOAuthClient({ createdAt: now - minuteMs })

        const scope = yield* Scope.make()
        yield* Layer.buildWithScope(
          OAuthCleanupWorker.layerWith({ interval: Duration.minutes(10) }).pipe(Layer.provide(logging)),
          scope
        )
        yield* eventually(
          Effect.map(grants.findToken(hashOf(grant.id, "x")), Option.isNone),
          "the expired token deleted by the first round"
        )
        yield* eventually(
          Effect.sync(() => lines.some((line) => line.message === "expired OAuth rows deleted")),
          "the round's log line"
        )
        yield* Scope.close(scope, Exit.void)

        const logged = lines.find((line) => line.message === "expired OAuth rows deleted")
        assert.deepInclude(logged?.annotations, { job: "oauth-cleanup", codes: 1, tokens: 1, links: 1, clients: 1 })
        const clients = yield* OAuthClientRepository
        assert.isTrue(Option.isNone(yield* clients.get(abandoned.id)))
        assert.isTrue(Option.isSome(yield* clients.get(fresh.id)))
        // The grant's client was registered "now" by its fixture; a granted client is kept whatever its age.
        assert.isTrue(Option.isSome(yield* clients.get(grant.clientId)))
        assert.isTrue(Option.isNone(yield* codes.consume(hashOf(grant.id, "e"), now)))
        assert.isTrue(Option.isSome(yield* codes.consume(hashOf(grant.id, "l"), now)))
        assert.isTrue(Option.isSome(yield* grants.findToken(hashOf(grant.id, "t"))))
        // The expired link's record is gone (a new use is first again); the current one is kept.
        assert.isTrue(yield* links.use(hashOf(grant.id, "k"), now - minuteMs, now))
        assert.isFalse(yield* links.use(hashOf(grant.id, "n"), now + hourMs, now))
        assert.isTrue(lines.some((line) => line.message === "oauth-cleanup worker stopped"))
      }).pipe(Effect.provide(MemoryAdapters.layer))
  )
})

describe("oauthCleanupConfig", () => {
  it.effect("10 minutes by default; a given interval is read; zero or nonsense is refused", () =>
    Effect.gen(function* () {
      const read = (env: Record<string, string>) =>
        OAuthCleanupWorker.oauthCleanupConfig.parse(ConfigProvider.fromEnv({ env }))
      assert.strictEqual(Duration.toMillis(Duration.fromInputUnsafe((yield* read({})).interval)), 10 * minuteMs)
      const given = yield* read({ OAUTH_CLEANUP_INTERVAL: "30 seconds" })
      assert.strictEqual(Duration.toMillis(Duration.fromInputUnsafe(given.interval)), 30_000)
      for (const refused of ["0 millis", "often"]) {
        const error = yield* Effect.flip(read({ OAUTH_CLEANUP_INTERVAL: refused }))
        assert.strictEqual(error._tag, "ConfigError", refused)
      }
    })
  )
})
