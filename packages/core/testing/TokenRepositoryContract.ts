import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { TokenId } from "../src/Ids.ts"
import type { IdGenerator } from "../src/ports/IdGenerator.ts"
import { TokenRepository } from "../src/ports/TokenRepository.ts"
import type { UserRepository } from "../src/ports/UserRepository.ts"
import type { WorkspaceRepository } from "../src/ports/WorkspaceRepository.ts"
import { anApiToken, fixtureNow, minuteMs } from "./Fixtures.ts"
import { expectSome, freshId, seedUser, seedWorkspace } from "./Seed.ts"

export type TokenContractServices = TokenRepository | WorkspaceRepository | UserRepository | IdGenerator

/** A stored token and the hash it was stored under. */
const seedToken = Effect.fnUntraced(function* () {
  const workspace = yield* seedWorkspace()
  const user = yield* seedUser()
  const id = yield* freshId("token", TokenId.make)
  const token = anApiToken({ id, workspaceId: workspace.id, issuedBy: user.id, scopes: ["runs:read", "catalog:read"] })
  // A stand-in for the hex SHA-256 of the secret: unique per token, 64 hex digits.
  const secretHash = Array.from(id, (char) => char.charCodeAt(0).toString(16).padStart(2, "0"))
    .join("")
    .padEnd(64, "0")
  yield* TokenRepository.use((tokens) => tokens.insert(token, secretHash))
  return { token, secretHash }
})

/** The TokenRepository port's contract: every adapter must pass it. */
export const tokenRepositoryContract = <E>(name: string, services: Layer.Layer<TokenContractServices, E>) =>
  layer(services)(`TokenRepository contract (${name})`, (it) => {
    it.effect("insert then get and findBySecretHash; unknown ids and hashes find nothing", () =>
      Effect.gen(function* () {
        const tokens = yield* TokenRepository
        const { token, secretHash } = yield* seedToken()
        assert.deepStrictEqual(yield* tokens.get(token.id), Option.some(token))
        assert.deepStrictEqual(yield* tokens.findBySecretHash(secretHash), Option.some(token))
        assert.isTrue(Option.isNone(yield* tokens.findBySecretHash("f".repeat(64))))
        assert.isTrue(Option.isNone(yield* tokens.get(yield* freshId("token", TokenId.make))))
      })
    )

    it.effect("revoke is true for the call that revokes and keeps the first instant", () =>
      Effect.gen(function* () {
        const tokens = yield* TokenRepository
        const { token } = yield* seedToken()
        assert.isTrue(yield* tokens.revoke(token.id, fixtureNow))
        assert.isFalse(yield* tokens.revoke(token.id, fixtureNow + minuteMs))
        assert.strictEqual((yield* expectSome(yield* tokens.get(token.id), "the token")).revokedAt, fixtureNow)
        assert.isFalse(yield* tokens.revoke(yield* freshId("token", TokenId.make), fixtureNow))
      })
    )

    it.effect("touch records the last use", () =>
      Effect.gen(function* () {
        const tokens = yield* TokenRepository
        const { token } = yield* seedToken()
        yield* tokens.touch(token.id, fixtureNow + minuteMs)
        yield* tokens.touch(token.id, fixtureNow + 2 * minuteMs)
        const touched = yield* expectSome(yield* tokens.get(token.id), "the token")
        assert.deepStrictEqual(touched, { ...token, lastUsedAt: fixtureNow + 2 * minuteMs })
      })
    )
  })
