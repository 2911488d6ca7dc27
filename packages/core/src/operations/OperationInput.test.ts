import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer, Ref, Schema } from "effect"
import { TestClock } from "effect/testing"
import { getWorkspaceStatus, listRecommendations, triggerRun } from "../../src/operations/OperationCatalogue.ts"
import { Input, type OperationCaller } from "../../src/operations/OperationInput.ts"
import { AgentAccess } from "../access/AgentAccess.ts"
import { WorkspaceId } from "../kernel/Ids.ts"
import { BackgroundRuns } from "../runs/BackgroundRuns.ts"
import type { Run } from "../runs/Run.ts"
import { seedUser, seedWorkspace, tokenActor, useCases, userA, wsA } from "../testing/UseCases.ts"

const caller: OperationCaller = { workspaceId: wsA, userId: userA, actor: tokenActor, role: "owner", door: "mcp" }

const decodes = (schema: Schema.Decoder<unknown>, value: unknown) =>
  Exit.isSuccess(Schema.decodeUnknownExit(schema)(value))

describe("an operation's input, declared once", () => {
  const query = listRecommendations.input.query
  const json = Input.extract(query, "json")
  const text = Input.extract(query, "query")

  it("limit: a JSON number in the json variant, decimal digits in the query variant, the same range", () => {
    assert.isTrue(decodes(json, { limit: 5 }))
    assert.isFalse(decodes(json, { limit: 0 }))
    assert.isFalse(decodes(json, { limit: "5" }))
    assert.isTrue(decodes(text, { limit: "5" }))
    for (const refused of ["0", "201", "0x10", "1e1", " 10", "10.0"]) {
      assert.isFalse(decodes(text, { limit: refused }), refused)
    }
  })

  it("the run_id filter refuses NUL in both variants (REST's query and MCP's arguments agree)", () => {
    assert.isTrue(decodes(json, { run_id: "run_1" }))
    assert.isFalse(decodes(json, { run_id: "run\u0000" }))
    assert.isFalse(decodes(text, { run_id: "run\u0000" }))
  })
})

describe("bindings", () => {
  it.effect("triggerRun queues the run and wakes the run worker, at the caller's door", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "max")
      yield* seedUser(userA, true)
      yield* TestClock.setTime(Date.parse("2025-03-15T12:00:00Z"))
      const started = yield* Ref.make<ReadonlyArray<Run>>([])
      const trigger = yield* triggerRun.binding.pipe(
        Effect.provideService(BackgroundRuns, { start: (run) => Ref.update(started, (runs) => [...runs, run]) })
      )
      const run = yield* trigger({ subset_tags: ["summer"] }, caller)
      assert.strictEqual(run.trigger, "mcp")
      assert.deepStrictEqual(run.subsetTags, ["summer"])
      assert.deepStrictEqual(
        (yield* Ref.get(started)).map((each) => each.id),
        [run.id]
      )
    }).pipe(Effect.provide(useCases))
  )

  it.effect("getWorkspaceStatus reads the calling user's own account deletion", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "free")
      yield* seedUser(userA, true)
      const read = yield* getWorkspaceStatus.binding
      const report = yield* read({}, caller)
      assert.isNull(report.accountDeletion)
    }).pipe(Effect.provide(useCases))
  )
})

describe("AgentAccess", () => {
  const access = Layer.provideMerge(AgentAccess.layer, useCases)

  it.effect("admits a Max workspace, refuses a Free one (tier) and an unknown one (not found)", () =>
    Effect.gen(function* () {
      yield* seedWorkspace(wsA, "max")
      const other = WorkspaceId.make("ws_free")
      yield* seedWorkspace(other, "free")
      const agents = yield* AgentAccess
      yield* agents.admit(wsA)
      const tier = yield* Effect.flip(agents.admit(other))
      assert.strictEqual(tier._tag, "TierIneligible")
      const missing = yield* Effect.flip(agents.admit(WorkspaceId.make("ws_none")))
      assert.strictEqual(missing._tag, "ResourceNotFound")
    }).pipe(Effect.provide(access))
  )
})
