import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { WorkspaceId } from "../kernel/Ids.ts"
import { auditOf, seedWorkspace, useCases, wsA } from "../testing/UseCases.ts"
import { SupportSessions } from "./SupportSessions.ts"

const support = Layer.provideMerge(SupportSessions.layer, useCases)

describe("SupportSessions", () => {
  it.effect("opens one session at a time, closes it, each audited", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "max")
      yield* TestClock.setTime(1_000)
      const service = yield* SupportSessions
      const input = { workspaceId: wsA, adminEmail: "support@margin.example", minutes: 30 }
      const session = yield* service.open(input, "system:test")
      assert.strictEqual(session.expiresAt, 1_000 + 30 * 60_000)
      const second = yield* Effect.flip(service.open(input, "system:test"))
      assert.deepStrictEqual(second._tag === "SupportSessionOpen" ? [second.adminEmail, second.expiresAt] : [], [
        "support@margin.example",
        session.expiresAt
      ])
      assert.strictEqual(yield* service.close(wsA, "system:test"), 1)
      assert.strictEqual(yield* service.close(wsA, "system:test"), 0)
      const events = (yield* auditOf(wsA)).map((e) => [e.action, e.resourceId, e.afterStatus])
      assert.deepStrictEqual(events, [
        ["support.open", session.id, "open"],
        ["support.close", wsA, "closed"]
      ])
    }).pipe(Effect.provide(support))
  )

  it.effect("an unknown workspace is not found", () =>
    Effect.gen(function* () {
      const service = yield* SupportSessions
      const unknown = WorkspaceId.make("ws_unknown")
      const failure = yield* Effect.flip(service.close(unknown, "system:test"))
      assert.strictEqual(failure._tag, "ResourceNotFound")
    }).pipe(Effect.provide(support))
  )
})
