import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { WorkspaceId } from "../kernel/Ids.ts"
import { defaultPricingPolicy } from "../pricing/PricingPolicy.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { fixtureNow, minuteMs } from "./Fixtures.ts"
import { assertPagingAmong, createdAtKey } from "./PagingContract.ts"
import { expectSome, freshId, seedWorkspace } from "./Seed.ts"

export type WorkspaceContractServices = WorkspaceRepository | IdGenerator

/** The WorkspaceRepository port's contract: every adapter must pass it. */
export const workspaceRepositoryContract = <E>(name: string, services: Layer.Layer<WorkspaceContractServices, E>) =>
  layer(services)(`WorkspaceRepository contract (${name})`, (it) => {
    it.effect("insert then get and findByName; a second insert of an id fails", () =>
      Effect.gen(function* () {
        const workspaces = yield* WorkspaceRepository
        const workspace = yield* seedWorkspace({ plan: "pro", lifecycleState: "trial", trialEndsAt: 1_800_000_000_000 })
        assert.deepStrictEqual(yield* workspaces.get(workspace.id), Option.some(workspace))
        assert.deepStrictEqual(yield* workspaces.findByName(workspace.name), Option.some(workspace))
        assert.isTrue(Option.isNone(yield* workspaces.get(yield* freshId("workspace", WorkspaceId.make))))
        assert.isTrue(Option.isNone(yield* workspaces.findByName(`${workspace.name} (no such)`)))
        assert.strictEqual((yield* Effect.flip(workspaces.insert(workspace)))._tag, "RepositoryError")
      })
    )

    it.effect("setPlan, setLifecycleState and setPricingPolicy change one workspace; false for an unknown id", () =>
      Effect.gen(function* () {
        const workspaces = yield* WorkspaceRepository
        const workspace = yield* seedWorkspace({ plan: "free", lifecycleState: "trial" })
        const bystander = yield* seedWorkspace()
        const policy = { ...defaultPricingPolicy, targetMargin: 0.4, rounding: "none" as const }
        assert.isTrue(yield* workspaces.setPlan(workspace.id, "enterprise"))
        assert.isTrue(yield* workspaces.setLifecycleState(workspace.id, "suspended"))
        assert.isTrue(yield* workspaces.setPricingPolicy(workspace.id, policy))
        const changed = yield* expectSome(yield* workspaces.get(workspace.id), "the workspace")
        assert.deepStrictEqual(changed, {
          ...workspace,
          plan: "enterprise",
          lifecycleState: "suspended",
          pricingPolicy: policy
        })
        assert.deepStrictEqual(yield* workspaces.get(bystander.id), Option.some(bystander))
        const unknown = yield* freshId("workspace", WorkspaceId.make)
        assert.isFalse(yield* workspaces.setPlan(unknown, "max"))
        assert.isFalse(yield* workspaces.setLifecycleState(unknown, "active"))
        assert.isFalse(yield* workspaces.setPricingPolicy(unknown, policy))
      })
    )

    it.effect("lockUsage succeeds for any id and changes nothing (its exclusion: PgConcurrency.test.ts)", () =>
      Effect.gen(function* () {
        const workspaces = yield* WorkspaceRepository
        const workspace = yield* seedWorkspace()
        yield* workspaces.lockUsage(workspace.id)
        yield* workspaces.lockUsage(yield* freshId("workspace", WorkspaceId.make))
        assert.deepStrictEqual(yield* workspaces.get(workspace.id), Option.some(workspace))
      })
    )

    it.effect("list pages every workspace newest first", () =>
      Effect.gen(function* () {
        const workspaces = yield* WorkspaceRepository
        const seeded = [
          yield* seedWorkspace({ createdAt: fixtureNow + 3 * minuteMs }),
          yield* seedWorkspace({ createdAt: fixtureNow + 3 * minuteMs }),
          yield* seedWorkspace({ createdAt: fixtureNow - minuteMs }),
          yield* seedWorkspace({ createdAt: fixtureNow + 7 * minuteMs })
        ]
        yield* assertPagingAmong((page) => workspaces.list(page), createdAtKey, seeded, 2)
        const first = yield* workspaces.list({ limit: 1, cursor: null })
        assert.strictEqual(first.items.length, 1)
      })
    )
  })
