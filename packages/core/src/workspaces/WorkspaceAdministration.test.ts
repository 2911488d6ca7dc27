import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { WorkspaceId } from "../kernel/Ids.ts"
import { defaultPricingPolicy } from "../pricing/PricingPolicy.ts"
import { auditOf, useCases } from "../testing/UseCases.ts"
import { trialDays, WorkspaceAdministration } from "./WorkspaceAdministration.ts"
import { WorkspaceRepository } from "./WorkspaceRepository.ts"

const administration = Layer.provideMerge(WorkspaceAdministration.layer, useCases)

describe("WorkspaceAdministration", () => {
  it.effect(
    "creates a workspace in trial and changes its plan, each audited by the actor (the policy: PricingPolicySettings)",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(1_000)
        const service = yield* WorkspaceAdministration
        const workspace = yield* service.create({ name: "Acme", plan: "pro", state: "trial" }, "system:test")
        assert.strictEqual(workspace.trialEndsAt, 1_000 + trialDays * 86_400_000)
        assert.deepStrictEqual(workspace.pricingPolicy, defaultPricingPolicy)
        assert.strictEqual(yield* service.setPlan(workspace.id, "max", "system:test"), "pro")
        const stored = Option.getOrThrow(yield* WorkspaceRepository.use((workspaces) => workspaces.get(workspace.id)))
        assert.strictEqual(stored.plan, "max")
        const events = (yield* auditOf(workspace.id)).map((e) => [e.action, e.beforeStatus, e.afterStatus, e.actor])
        assert.deepStrictEqual(events, [
          ["workspace.create", null, "trial", "system:test"],
          ["workspace.set_plan", "pro", "max", "system:test"]
        ])
      }).pipe(Effect.provide(administration))
  )

  it.effect("an active workspace has no trial end; an unknown one is not found and nothing is audited", () =>
    Effect.gen(function* () {
      const service = yield* WorkspaceAdministration
      const active = yield* service.create({ name: "Acme", plan: "max", state: "active" }, "system:test")
      assert.isNull(active.trialEndsAt)
      const unknown = WorkspaceId.make("ws_unknown")
      const failure = yield* Effect.flip(service.setPlan(unknown, "max", "system:test"))
      assert.strictEqual(failure._tag, "ResourceNotFound")
      assert.deepStrictEqual(yield* auditOf(unknown), [])
    }).pipe(Effect.provide(administration))
  )
})
