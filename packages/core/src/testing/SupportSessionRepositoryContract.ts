import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { SupportSessionId } from "../kernel/Ids.ts"
import type { SupportSession } from "../workspaces/SupportSession.ts"
import { SupportSessionRepository } from "../workspaces/SupportSessionRepository.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { aSupportSession, fixtureNow, hourMs, minuteMs } from "./Fixtures.ts"
import { freshId, seedWorkspace } from "./Seed.ts"

export type SupportSessionContractServices = SupportSessionRepository | WorkspaceRepository | IdGenerator

const openSession = Effect.fnUntraced(function* (overrides: Partial<SupportSession>) {
  const session = aSupportSession({ id: yield* freshId("supportSession", SupportSessionId.make), ...overrides })
  yield* SupportSessionRepository.use((sessions) => sessions.open(session))
  return session
})

/** The SupportSessionRepository port's contract: every adapter must pass it. */
export const supportSessionRepositoryContract = <E>(
  name: string,
  services: Layer.Layer<SupportSessionContractServices, E>
) =>
  layer(services)(`SupportSessionRepository contract (${name})`, (it) => {
    it.effect("activeFor sees a session from its start until it expires, in its workspace only", () =>
      Effect.gen(function* () {
        const sessions = yield* SupportSessionRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const session = yield* openSession({
          workspaceId: workspace.id,
          startedAt: fixtureNow,
          expiresAt: fixtureNow + hourMs
        })
        assert.isTrue(Option.isNone(yield* sessions.activeFor(workspace.id, fixtureNow - 1)))
        assert.deepStrictEqual(yield* sessions.activeFor(workspace.id, fixtureNow), Option.some(session))
        assert.deepStrictEqual(yield* sessions.activeFor(workspace.id, fixtureNow + hourMs - 1), Option.some(session))
        assert.isTrue(Option.isNone(yield* sessions.activeFor(workspace.id, fixtureNow + hourMs)))
        assert.isTrue(Option.isNone(yield* sessions.activeFor(other.id, fixtureNow)))
      })
    )

    it.effect("close ends the workspace's open sessions and counts them", () =>
      Effect.gen(function* () {
        const sessions = yield* SupportSessionRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        yield* openSession({ workspaceId: workspace.id })
        yield* openSession({ workspaceId: workspace.id, startedAt: fixtureNow + minuteMs })
        yield* openSession({ workspaceId: workspace.id, expiresAt: fixtureNow + minuteMs })
        const untouched = yield* openSession({ workspaceId: other.id })
        const now = fixtureNow + 2 * minuteMs
        assert.strictEqual(yield* sessions.close(workspace.id, now), 2, "the expired one had ended already")
        assert.isTrue(Option.isNone(yield* sessions.activeFor(workspace.id, now)))
        assert.strictEqual(yield* sessions.close(workspace.id, now), 0)
        assert.deepStrictEqual(yield* sessions.activeFor(other.id, now), Option.some(untouched))
      })
    )
  })
