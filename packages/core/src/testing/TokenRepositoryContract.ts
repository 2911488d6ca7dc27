import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { ApiToken } from "../access/ApiToken.ts"
import { TokenRepository } from "../access/TokenRepository.ts"
import type { UserRepository } from "../access/UserRepository.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { TokenId } from "../kernel/Ids.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { anApiToken, fixtureNow, minuteMs } from "./Fixtures.ts"
import { assertPaging, createdAtKey } from "./PagingContract.ts"
import { expectSome, freshId, seedUser, seedWorkspace } from "./Seed.ts"

export type TokenContractServices = TokenRepository | WorkspaceRepository | UserRepository | IdGenerator

/** A stored token and the hash it was stored under (in a workspace and of a user of its own unless given). */
const seedToken = Effect.fnUntraced(function* (overrides: Partial<ApiToken> = {}) {
  const workspaceId = overrides.workspaceId ?? (yield* seedWorkspace()).id
  const issuedBy = overrides.issuedBy ?? (yield* seedUser()).id
  const id = yield* freshId("token", TokenId.make)
  const token = anApiToken({ id, scopes: ["runs:read", "catalog:read"], ...overrides, workspaceId, issuedBy })
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

    it.effect(
      "listForWorkspace pages the workspace's tokens newest first, revoked ones too; by issuer when asked",
      () =>
        Effect.gen(function* () {
          const tokens = yield* TokenRepository
          const workspace = yield* seedWorkspace()
          const ada = yield* seedUser()
          const bob = yield* seedUser()
          const stored: Array<ApiToken> = []
          for (const [index, issuedBy] of [ada.id, bob.id, ada.id, ada.id, bob.id].entries()) {
            const at = fixtureNow + (index % 3) * minuteMs
            stored.push((yield* seedToken({ workspaceId: workspace.id, issuedBy, createdAt: at })).token)
          }
          const revoked = stored[0]
          if (revoked !== undefined) yield* tokens.revoke(revoked.id, fixtureNow + 5 * minuteMs)
          const listed = stored.map((token) =>
            token.id === revoked?.id ? { ...token, revokedAt: fixtureNow + 5 * minuteMs } : token
          )
          yield* seedToken({ issuedBy: ada.id })
          yield* assertPaging(
            (page) => tokens.listForWorkspace(workspace.id, { issuedBy: null }, page),
            createdAtKey,
            listed,
            2
          )
          yield* assertPaging(
            (page) => tokens.listForWorkspace(workspace.id, { issuedBy: ada.id }, page),
            createdAtKey,
            listed.filter((token) => token.issuedBy === ada.id),
            1
          )
          const page = yield* tokens.listForWorkspace(workspace.id, { issuedBy: null }, { limit: 10, cursor: null })
          assert.deepStrictEqual(
            [...page.items].sort((a, b) => (a.id < b.id ? -1 : 1)),
            [...listed].sort((a, b) => (a.id < b.id ? -1 : 1)),
            "the tokens as stored"
          )
        })
    )
  })
