import { assert, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { LoginLinkRepository } from "../oauth/LoginLinkRepository.ts"
import { fixtureNow, minuteMs } from "./Fixtures.ts"
import { hashOf } from "./OAuthFixtures.ts"
import { freshId } from "./Seed.ts"

export type LoginLinkContractServices = LoginLinkRepository | IdGenerator

/** A nonce hash no other test uses. */
const freshNonceHash = freshId("oauthClient", (id) => hashOf(id, "n"))

/** The LoginLinkRepository port's contract: every adapter must pass it. */
export const loginLinkRepositoryContract = <E>(name: string, services: Layer.Layer<LoginLinkContractServices, E>) =>
  layer(services)(`LoginLinkRepository contract (${name})`, (it) => {
    it.effect("the first use of a link is true, every later one false", () =>
      Effect.gen(function* () {
        const links = yield* LoginLinkRepository
        const nonceHash = yield* freshNonceHash
        const expiresAt = fixtureNow + 10 * minuteMs
        assert.isTrue(yield* links.use(nonceHash, expiresAt, fixtureNow))
        assert.isFalse(yield* links.use(nonceHash, expiresAt, fixtureNow + 1_000))
        assert.isFalse(yield* links.use(nonceHash, expiresAt, fixtureNow + 2_000))
        assert.isTrue(yield* links.use(yield* freshNonceHash, expiresAt, fixtureNow))
      })
    )

    it.effect("of concurrent uses of one link exactly one is true", () =>
      Effect.gen(function* () {
        const links = yield* LoginLinkRepository
        const nonceHash = yield* freshNonceHash
        const firsts = yield* Effect.forEach(
          Array.from({ length: 8 }, (_, index) => index),
          (index) => links.use(nonceHash, fixtureNow + 10 * minuteMs, fixtureNow + index),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(firsts.filter((first) => first).length, 1)
      })
    )

    it.effect("deleteExpired forgets the links expired by then and keeps the others used", () =>
      Effect.gen(function* () {
        const links = yield* LoginLinkRepository
        // Far from the other tests' instants, so their rows do not count here.
        const now = fixtureNow + 1_000 * minuteMs
        const expired = yield* freshNonceHash
        const expiringNow = yield* freshNonceHash
        const live = yield* freshNonceHash
        assert.isTrue(yield* links.use(expired, now - minuteMs, now - 2 * minuteMs))
        assert.isTrue(yield* links.use(expiringNow, now, now - minuteMs))
        assert.isTrue(yield* links.use(live, now + 1, now - minuteMs))
        assert.isAtLeast(yield* links.deleteExpired(now), 2)
        assert.strictEqual(yield* links.deleteExpired(now), 0)
        assert.isFalse(yield* links.use(live, now + 1, now))
        assert.isTrue(yield* links.use(expired, now - minuteMs, now))
      })
    )
  })
