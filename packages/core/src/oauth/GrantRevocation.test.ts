import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { GrantId } from "../kernel/Ids.ts"
import { seedGrant } from "../testing/OAuthFixtures.ts"
import { auditOf, useCases } from "../testing/UseCases.ts"
import { GrantRevocation } from "./GrantRevocation.ts"

const revocation = Layer.provideMerge(GrantRevocation.layer, useCases)

describe("GrantRevocation", () => {
  it.effect("revokes a grant once, audited in its workspace; an unknown grant is not found", () =>
    Effect.gen(function* () {
      const grant = yield* seedGrant()
      yield* TestClock.setTime(5_000)
      const service = yield* GrantRevocation
      const first = yield* service.revoke(grant.id, "system:test")
      assert.deepStrictEqual([first.revokedNow, first.grant.revokedAt], [true, 5_000])
      const again = yield* service.revoke(grant.id, "system:test")
      assert.deepStrictEqual([again.revokedNow, again.grant.revokedAt], [false, 5_000])
      const events = (yield* auditOf(grant.workspaceId)).map((e) => [e.action, e.resourceId, e.afterStatus])
      assert.deepStrictEqual(events, [["grant.revoke", grant.id, "revoked"]])
      const unknown = yield* Effect.flip(service.revoke(GrantId.make("grt_unknown"), "system:test"))
      assert.strictEqual(unknown._tag, "ResourceNotFound")
    }).pipe(Effect.provide(revocation))
  )
})
