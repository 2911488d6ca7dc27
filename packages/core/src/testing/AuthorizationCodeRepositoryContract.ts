import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { UserRepository } from "../access/UserRepository.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { AuthorizationCodeRepository } from "../oauth/AuthorizationCodeRepository.ts"
import type { OAuthClientRepository } from "../oauth/OAuthClientRepository.ts"
import type { OAuthGrantRepository } from "../oauth/OAuthGrantRepository.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { fixtureNow, minuteMs } from "./Fixtures.ts"
import { anAuthorizationCode, hashOf, seedGrant } from "./OAuthFixtures.ts"

export type AuthorizationCodeContractServices =
  | AuthorizationCodeRepository
  | OAuthGrantRepository
  | OAuthClientRepository
  | WorkspaceRepository
  | UserRepository
  | IdGenerator

/** A stored unused code of a fresh grant, and its hash. */
const seedCode = Effect.fnUntraced(function* () {
  const grant = yield* seedGrant()
  const code = anAuthorizationCode({ grantId: grant.id, clientId: grant.clientId, scopes: ["runs:read"] })
  const codeHash = hashOf(grant.id, "c")
  yield* AuthorizationCodeRepository.use((codes) => codes.insert(codeHash, code))
  return { code, codeHash }
})

/** The AuthorizationCodeRepository port's contract: every adapter must pass it. */
export const authorizationCodeRepositoryContract = <E>(
  name: string,
  services: Layer.Layer<AuthorizationCodeContractServices, E>
) =>
  layer(services)(`AuthorizationCodeRepository contract (${name})`, (it) => {
    it.effect("consume answers the code as it was, marks it used once and keeps the first instant", () =>
      Effect.gen(function* () {
        const codes = yield* AuthorizationCodeRepository
        const { code, codeHash } = yield* seedCode()
        assert.deepStrictEqual(yield* codes.consume(codeHash, fixtureNow + 1_000), Option.some(code))
        assert.deepStrictEqual(
          yield* codes.consume(codeHash, fixtureNow + minuteMs),
          Option.some({ ...code, usedAt: fixtureNow + 1_000 })
        )
        assert.isTrue(Option.isNone(yield* codes.consume("e".repeat(64), fixtureNow)))
      })
    )

    it.effect("find answers the code as stored and marks nothing", () =>
      Effect.gen(function* () {
        const codes = yield* AuthorizationCodeRepository
        const { code, codeHash } = yield* seedCode()
        assert.deepStrictEqual(yield* codes.find(codeHash), Option.some(code))
        assert.deepStrictEqual(yield* codes.find(codeHash), Option.some(code))
        assert.deepStrictEqual(yield* codes.consume(codeHash, fixtureNow + 1_000), Option.some(code))
        assert.deepStrictEqual(yield* codes.find(codeHash), Option.some({ ...code, usedAt: fixtureNow + 1_000 }))
        assert.isTrue(Option.isNone(yield* codes.find("e".repeat(64))))
      })
    )

    it.effect("of concurrent redemptions exactly one sees the code unused", () =>
      Effect.gen(function* () {
        const codes = yield* AuthorizationCodeRepository
        const { codeHash } = yield* seedCode()
        const seen = yield* Effect.forEach(
          Array.from({ length: 8 }, (_, index) => index),
          (index) => codes.consume(codeHash, fixtureNow + index),
          { concurrency: "unbounded" }
        )
        const unused = seen.filter((found) => Option.isSome(found) && found.value.usedAt === null)
        assert.strictEqual(unused.length, 1)
      })
    )

    it.effect("a second insert under one hash fails", () =>
      Effect.gen(function* () {
        const codes = yield* AuthorizationCodeRepository
        const { code, codeHash } = yield* seedCode()
        const again = yield* Effect.flip(codes.insert(codeHash, code))
        assert.strictEqual(again._tag, "RepositoryError")
      })
    )

    it.effect("deleteExpired removes the codes expired by then, used or not, and keeps the current ones", () =>
      Effect.gen(function* () {
        const codes = yield* AuthorizationCodeRepository
        // Far past the other tests' instants: their codes have expired by then and may go too.
        const now = fixtureNow + 1_000 * minuteMs
        const grant = yield* seedGrant()
        const code = (expiresAt: number, usedAt: number | null) =>
          anAuthorizationCode({
            grantId: grant.id,
            clientId: grant.clientId,
            createdAt: now - minuteMs,
            expiresAt,
            usedAt
          })
        const stored = {
          expired: code(now, null),
          expiredUsed: code(now - 1, now - minuteMs),
          current: code(now + 1, null),
          currentUsed: code(now + 1, now - 1)
        }
        // One letter of salt each: a hash stand-in is 64 hex digits at most.
        const salts = { expired: "e", expiredUsed: "x", current: "c", currentUsed: "u" }
        const hashOfCode = (name: keyof typeof stored) => hashOf(grant.id, salts[name])
        for (const name of Object.keys(stored) as Array<keyof typeof stored>) {
          yield* codes.insert(hashOfCode(name), stored[name])
        }
        assert.isAtLeast(yield* codes.deleteExpired(now), 2)
        assert.strictEqual(yield* codes.deleteExpired(now), 0)
        assert.isTrue(Option.isNone(yield* codes.consume(hashOfCode("expired"), now)))
        assert.isTrue(Option.isNone(yield* codes.consume(hashOfCode("expiredUsed"), now)))
        assert.deepStrictEqual(yield* codes.consume(hashOfCode("current"), now), Option.some(stored.current))
        // A used code stays until it expires, so that its replay is still recognised.
        assert.deepStrictEqual(yield* codes.consume(hashOfCode("currentUsed"), now), Option.some(stored.currentUsed))
      })
    )
  })
