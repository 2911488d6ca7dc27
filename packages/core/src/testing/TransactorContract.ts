import { assert, layer } from "@effect/vitest"
import { Cause, Effect, Exit, type Layer, Schema } from "effect"
import { AuditRepository } from "../audit/AuditRepository.ts"
import type { CatalogRepository } from "../catalog/CatalogRepository.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { AuditEventId } from "../kernel/Ids.ts"
import * as Outcome from "../kernel/Outcome.ts"
import { Transactor } from "../kernel/Transactor.ts"
import type { Recommendation } from "../recommendations/Recommendation.ts"
import { RecommendationRepository } from "../recommendations/RecommendationRepository.ts"
import { RunRepository } from "../runs/RunRepository.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { anAuditEvent, fixtureNow } from "./Fixtures.ts"
import { expectSome, freshId, seedItem, seedRecommendation, seedRun, seedWorkspace } from "./Seed.ts"

export type TransactorContractServices =
  | Transactor
  | RunRepository
  | RecommendationRepository
  | CatalogRepository
  | AuditRepository
  | WorkspaceRepository
  | IdGenerator

class Boom extends Schema.TaggedError<Boom>()("Boom", {}) {}

const accept = (current: Recommendation) =>
  current.status === "new"
    ? Outcome.transitioned(current, { ...current, status: "pending_approval" as const, acceptedAt: fixtureNow })
    : Outcome.idempotentRepeat(current)

/**
 * A workspace with one run and one `new` recommendation. `writes` makes what an approval-like
 * transaction makes across three repositories: a new run, the recommendation's transition, an
 * audit event. `written` reads back how much of it is visible.
 */
const scene = Effect.fnUntraced(function* () {
  const workspace = yield* seedWorkspace()
  const run = yield* seedRun(workspace.id)
  const recommendation = yield* seedRecommendation(run, yield* seedItem(workspace.id))
  const writes = Effect.gen(function* () {
    yield* seedRun(workspace.id)
    yield* RecommendationRepository.use((repository) => repository.update(workspace.id, recommendation.id, accept))
    const id = yield* freshId("auditEvent", AuditEventId.make)
    yield* AuditRepository.use((audit) => audit.record(anAuditEvent({ id, workspaceId: workspace.id })))
  })
  const written = Effect.gen(function* () {
    const page = { limit: 50, cursor: null }
    const runs = yield* RunRepository.use((repository) => repository.list(workspace.id, { status: null }, page))
    const stored = yield* RecommendationRepository.use((repository) => repository.get(workspace.id, recommendation.id))
    const events = yield* AuditRepository.use((audit) => audit.list(workspace.id, page))
    const { status } = yield* expectSome(stored, "the recommendation")
    return { runs: runs.items.length, status, events: events.items.length }
  })
  return { writes, written }
})

const nothingWritten = { runs: 1, status: "new", events: 0 }
const allWritten = { runs: 2, status: "pending_approval", events: 1 }

/** The Transactor port's contract: every adapter must pass it. */
export const transactorContract = <E>(name: string, services: Layer.Layer<TransactorContractServices, E>) =>
  layer(services)(`Transactor contract (${name})`, (it) => {
    it.effect("a transaction that succeeds commits every write", () =>
      Effect.gen(function* () {
        const transactor = yield* Transactor
        const { writes, written } = yield* scene()
        yield* transactor.transaction(writes)
        assert.deepStrictEqual(yield* written, allWritten)
      })
    )

    it.effect("a transaction that fails leaves no write behind and fails with the error", () =>
      Effect.gen(function* () {
        const transactor = yield* Transactor
        const { writes, written } = yield* scene()
        const error = yield* Effect.flip(transactor.transaction(Effect.andThen(writes, Effect.fail(new Boom()))))
        assert.strictEqual(error._tag, "Boom")
        assert.deepStrictEqual(yield* written, nothingWritten)
      })
    )

    it.effect("a transaction that dies leaves no write behind", () =>
      Effect.gen(function* () {
        const transactor = yield* Transactor
        const { writes, written } = yield* scene()
        const exit = yield* Effect.exit(transactor.transaction(Effect.andThen(writes, Effect.die("defect"))))
        assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause))
        assert.deepStrictEqual(yield* written, nothingWritten)
      })
    )

    it.effect("a transaction reads its own writes", () =>
      Effect.gen(function* () {
        const transactor = yield* Transactor
        const { writes, written } = yield* scene()
        const inside = yield* transactor.transaction(Effect.andThen(writes, written))
        assert.deepStrictEqual(inside, allWritten)
      })
    )

    it.effect("a nested transaction is part of the outer one: it rolls back with it", () =>
      Effect.gen(function* () {
        const transactor = yield* Transactor
        const { writes, written } = yield* scene()
        const outer = Effect.gen(function* () {
          yield* transactor.transaction(writes)
          return yield* new Boom()
        })
        yield* Effect.flip(transactor.transaction(outer))
        assert.deepStrictEqual(yield* written, nothingWritten)
      })
    )

    it.effect("a failed nested transaction the outer one recovers from undoes only its own writes", () =>
      Effect.gen(function* () {
        const transactor = yield* Transactor
        const { writes, written } = yield* scene()
        const inner = transactor.transaction(Effect.andThen(writes, Effect.fail(new Boom())))
        const outer = Effect.gen(function* () {
          yield* Effect.flip(inner)
          yield* writes
        })
        yield* transactor.transaction(outer)
        assert.deepStrictEqual(yield* written, allWritten)
      })
    )
  })
