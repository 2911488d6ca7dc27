import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { UserRepository } from "../access/UserRepository.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { GrantId } from "../kernel/Ids.ts"
import type { OAuthClientRepository } from "../oauth/OAuthClientRepository.ts"
import { OAuthGrantRepository } from "../oauth/OAuthGrantRepository.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { fixtureNow, hourMs, minuteMs } from "./Fixtures.ts"
import { anOAuthToken, hashOf, seedGrant, seedOAuthClient } from "./OAuthFixtures.ts"
import { expectSome, freshId, seedWorkspace } from "./Seed.ts"

export type OAuthGrantContractServices =
  | OAuthGrantRepository
  | OAuthClientRepository
  | WorkspaceRepository
  | UserRepository
  | IdGenerator

/** The OAuthGrantRepository port's contract: every adapter must pass it. */
export const oauthGrantRepositoryContract = <E>(name: string, services: Layer.Layer<OAuthGrantContractServices, E>) =>
  layer(services)(`OAuthGrantRepository contract (${name})`, (it) => {
    it.effect("consent inserts a grant; consenting again updates the live one instead of adding another", () =>
      Effect.gen(function* () {
        const grants = yield* OAuthGrantRepository
        const grant = yield* seedGrant({ scopes: ["runs:read", "catalog:read"] })
        assert.deepStrictEqual(yield* grants.get(grant.id), Option.some(grant))
        const again = yield* grants.consent({
          ...grant,
          id: yield* freshId("grant", GrantId.make),
          scopes: ["runs:read"],
          resource: "https://other.example/mcp",
          createdAt: fixtureNow + minuteMs
        })
        assert.deepStrictEqual(again, { ...grant, scopes: ["runs:read"], resource: "https://other.example/mcp" })
        assert.deepStrictEqual(yield* grants.list({ userId: grant.userId }), [again])
      })
    )

    it.effect(
      "another workspace or client of the same user is another grant; after a revoke, consent makes a new one",
      () =>
        Effect.gen(function* () {
          const grants = yield* OAuthGrantRepository
          const grant = yield* seedGrant()
          const workspace = yield* seedWorkspace()
          const secondId = yield* freshId("grant", GrantId.make)
          const second = yield* grants.consent({
            ...grant,
            id: secondId,
            workspaceId: workspace.id,
            createdAt: fixtureNow + 1
          })
          assert.strictEqual(second.id, secondId)
          const client = yield* seedOAuthClient()
          const thirdId = yield* freshId("grant", GrantId.make)
          const third = yield* grants.consent({ ...grant, id: thirdId, clientId: client.id, createdAt: fixtureNow + 2 })
          assert.strictEqual(third.id, thirdId)
          assert.isTrue(yield* grants.revoke(grant.id, fixtureNow + minuteMs))
          const fourthId = yield* freshId("grant", GrantId.make)
          const fourth = yield* grants.consent({ ...grant, id: fourthId, createdAt: fixtureNow + 3 })
          assert.strictEqual(fourth.id, fourthId)
          assert.deepStrictEqual(
            (yield* grants.list({ userId: grant.userId })).map((listed) => listed.id),
            [fourthId, thirdId, secondId, grant.id]
          )
        })
    )

    it.effect("revoke is true for the call that revokes and keeps the first instant", () =>
      Effect.gen(function* () {
        const grants = yield* OAuthGrantRepository
        const grant = yield* seedGrant()
        assert.isTrue(yield* grants.revoke(grant.id, fixtureNow + minuteMs))
        assert.isFalse(yield* grants.revoke(grant.id, fixtureNow + 2 * minuteMs))
        const revoked = yield* expectSome(yield* grants.get(grant.id), "the grant")
        assert.strictEqual(revoked.revokedAt, fixtureNow + minuteMs)
        assert.isFalse(yield* grants.revoke(yield* freshId("grant", GrantId.make), fixtureNow))
        assert.isTrue((yield* grants.list({})).some((listed) => listed.id === grant.id))
      })
    )

    it.effect("tokens: insert, find, use once (concurrent uses see one unused), revoke once", () =>
      Effect.gen(function* () {
        const grants = yield* OAuthGrantRepository
        const grant = yield* seedGrant()
        const access = anOAuthToken({ grantId: grant.id, kind: "access" })
        const refresh = anOAuthToken({ grantId: grant.id, kind: "refresh" })
        yield* grants.insertToken(hashOf(grant.id, "a"), access)
        yield* grants.insertToken(hashOf(grant.id, "r"), refresh)
        assert.deepStrictEqual(yield* grants.findToken(hashOf(grant.id, "a")), Option.some(access))
        assert.isTrue(Option.isNone(yield* grants.findToken("d".repeat(64))))
        const uses = yield* Effect.forEach(
          Array.from({ length: 6 }, (_, index) => fixtureNow + index),
          (at) => grants.useToken(hashOf(grant.id, "r"), at),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(uses.filter((found) => Option.isSome(found) && found.value.usedAt === null).length, 1)
        const used = yield* expectSome(yield* grants.findToken(hashOf(grant.id, "r")), "the refresh token")
        assert.isNotNull(used.usedAt)
        assert.isTrue(yield* grants.revokeToken(hashOf(grant.id, "a"), fixtureNow + minuteMs))
        assert.isFalse(yield* grants.revokeToken(hashOf(grant.id, "a"), fixtureNow + 2 * minuteMs))
        assert.deepStrictEqual(
          yield* grants.findToken(hashOf(grant.id, "a")),
          Option.some({ ...access, revokedAt: fixtureNow + minuteMs })
        )
        assert.isFalse(yield* grants.revokeToken("d".repeat(64), fixtureNow))
        const duplicate = yield* Effect.flip(grants.insertToken(hashOf(grant.id, "a"), access))
        assert.strictEqual(duplicate._tag, "RepositoryError")
      })
    )

    it.effect("deleteDeadTokens removes expired, revoked and revoked grants' tokens, keeps live ones and grants", () =>
      Effect.gen(function* () {
        const grants = yield* OAuthGrantRepository
        // Far past the other tests' instants: their tokens have expired by then and may go too.
        const now = fixtureNow + 1_000 * hourMs
        const live = yield* seedGrant()
        const ended = yield* seedGrant()
        assert.isTrue(yield* grants.revoke(ended.id, now - minuteMs))
        const current = { createdAt: now - minuteMs, expiresAt: now + hourMs }
        const tokens = {
          live: anOAuthToken({ grantId: live.id, kind: "access", ...current }),
          usedRefresh: anOAuthToken({ grantId: live.id, kind: "refresh", ...current, usedAt: now - 1 }),
          revokedLater: anOAuthToken({ grantId: live.id, ...current, revokedAt: now + 1 }),
          expired: anOAuthToken({ grantId: live.id, ...current, expiresAt: now }),
          revoked: anOAuthToken({ grantId: live.id, ...current, revokedAt: now }),
          ofEndedGrant: anOAuthToken({ grantId: ended.id, ...current })
        }
        // One letter of salt each: a hash stand-in is 64 hex digits at most.
        const salts = { live: "l", usedRefresh: "u", revokedLater: "k", expired: "e", revoked: "r", ofEndedGrant: "o" }
        const hashOfToken = (name: keyof typeof tokens) => hashOf(live.id, salts[name])
        for (const name of Object.keys(tokens) as Array<keyof typeof tokens>) {
          yield* grants.insertToken(hashOfToken(name), tokens[name])
        }
        assert.isAtLeast(yield* grants.deleteDeadTokens(now), 3)
        assert.strictEqual(yield* grants.deleteDeadTokens(now), 0)
        for (const name of ["live", "usedRefresh", "revokedLater"] as const) {
          assert.deepStrictEqual(yield* grants.findToken(hashOfToken(name)), Option.some(tokens[name]), name)
        }
        for (const name of ["expired", "revoked", "ofEndedGrant"] as const) {
          assert.isTrue(Option.isNone(yield* grants.findToken(hashOfToken(name))), name)
        }
        assert.isTrue(Option.isSome(yield* grants.get(live.id)))
        assert.isTrue(Option.isSome(yield* grants.get(ended.id)))
      })
    )

    it.effect("list by workspace; touch records the last use, never moving it back; consent keeps it", () =>
      Effect.gen(function* () {
        const grants = yield* OAuthGrantRepository
        const lastUse = (id: GrantId) =>
          Effect.map(
            Effect.flatMap(grants.get(id), (found) => expectSome(found, "the grant")),
            (found) => found.lastUsedAt
          )
        const grant = yield* seedGrant()
        const elsewhere = yield* seedGrant()
        assert.deepStrictEqual(
          (yield* grants.list({ workspaceId: grant.workspaceId })).map((one) => one.id),
          [grant.id]
        )
        assert.deepStrictEqual(yield* grants.list({ workspaceId: grant.workspaceId, userId: elsewhere.userId }), [])
        assert.isNull(yield* lastUse(grant.id))
        yield* grants.touch(grant.id, fixtureNow + minuteMs)
        yield* grants.touch(grant.id, fixtureNow)
        assert.strictEqual(yield* lastUse(grant.id), fixtureNow + minuteMs)
        yield* grants.consent({ ...grant, id: yield* freshId("grant", GrantId.make), scopes: ["runs:read"] })
        assert.strictEqual(yield* lastUse(grant.id), fixtureNow + minuteMs)
        assert.isNull(yield* lastUse(elsewhere.id))
      })
    )
  })
