import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { IdempotencyKeyRepository, type IdempotentRequest } from "../kernel/IdempotencyKeyRepository.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { WorkspaceId } from "../kernel/Ids.ts"
import { dayMs, fixtureNow } from "./Fixtures.ts"
import { freshId } from "./Seed.ts"

export type IdempotencyKeyContractServices = IdempotencyKeyRepository | IdGenerator

/** A workspace id no other test uses (the port keeps no workspace row: any id is a scope). */
const freshWorkspace = freshId("workspace", WorkspaceId.make)

const request = (workspaceId: WorkspaceId, overrides: Partial<IdempotentRequest> = {}): IdempotentRequest => ({
  workspaceId,
  operation: "triggerRun",
  key: "key-1",
  fingerprint: '["kitchen"]',
  resourceId: "run_first",
  createdAt: fixtureNow,
  ...overrides
})

/** The IdempotencyKeyRepository port's contract: every adapter must pass it. */
export const idempotencyKeyRepositoryContract = <E>(
  name: string,
  services: Layer.Layer<IdempotencyKeyContractServices, E>
) =>
  layer(services)(`IdempotencyKeyRepository contract (${name})`, (it) => {
    it.effect("finds what was recorded under (workspace, operation, key), from `since` on", () =>
      Effect.gen(function* () {
        const keys = yield* IdempotencyKeyRepository
        const workspaceId = yield* freshWorkspace
        assert.isTrue(Option.isNone(yield* keys.find(workspaceId, "triggerRun", "key-1", fixtureNow - dayMs)))
        yield* keys.record(request(workspaceId))
        assert.deepStrictEqual(
          yield* keys.find(workspaceId, "triggerRun", "key-1", fixtureNow - dayMs),
          Option.some(request(workspaceId))
        )
        // Recorded at `since` exactly: still found; before it: gone.
        assert.isTrue(Option.isSome(yield* keys.find(workspaceId, "triggerRun", "key-1", fixtureNow)))
        assert.isTrue(Option.isNone(yield* keys.find(workspaceId, "triggerRun", "key-1", fixtureNow + 1)))
      })
    )

    it.effect("keys are per workspace, per operation, and compared exactly (case included)", () =>
      Effect.gen(function* () {
        const keys = yield* IdempotencyKeyRepository
        const [mine, theirs] = [yield* freshWorkspace, yield* freshWorkspace]
        yield* keys.record(request(mine))
        const since = fixtureNow - dayMs
        assert.isTrue(Option.isNone(yield* keys.find(theirs, "triggerRun", "key-1", since)))
        assert.isTrue(Option.isNone(yield* keys.find(mine, "otherOperation", "key-1", since)))
        assert.isTrue(Option.isNone(yield* keys.find(mine, "triggerRun", "KEY-1", since)))
        yield* keys.record(request(theirs, { resourceId: "run_theirs" }))
        assert.strictEqual(
          Option.getOrUndefined(yield* keys.find(mine, "triggerRun", "key-1", since))?.resourceId,
          "run_first"
        )
      })
    )

    it.effect("recording a key again replaces its record (an expired key's next use)", () =>
      Effect.gen(function* () {
        const keys = yield* IdempotencyKeyRepository
        const workspaceId = yield* freshWorkspace
        yield* keys.record(request(workspaceId))
        const later = request(workspaceId, {
          fingerprint: "[]",
          resourceId: "run_second",
          createdAt: fixtureNow + 2 * dayMs
        })
        yield* keys.record(later)
        assert.deepStrictEqual(
          yield* keys.find(workspaceId, "triggerRun", "key-1", fixtureNow + dayMs),
          Option.some(later)
        )
      })
    )
  })
