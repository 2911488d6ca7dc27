import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option, Stream } from "effect"
import type { CatalogItem } from "../catalog/CatalogItem.ts"
import type { CatalogRepository } from "../catalog/CatalogRepository.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { RecommendationId, type WorkspaceId } from "../kernel/Ids.ts"
import * as Outcome from "../kernel/Outcome.ts"
import { newestFirst } from "../kernel/Page.ts"
import { priorDecisionOf } from "../recommendations/DecisionMemory.ts"
import type { Recommendation } from "../recommendations/Recommendation.ts"
import { type RecommendationFilter, RecommendationRepository } from "../recommendations/RecommendationRepository.ts"
import type { RunRepository } from "../runs/RunRepository.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { fixtureNow, minuteMs } from "./Fixtures.ts"
import { assertPaging, createdAtKey } from "./PagingContract.ts"
import { expectSome, freshId, newRecommendation, seedItem, seedRecommendation, seedRun, seedWorkspace } from "./Seed.ts"

export type RecommendationContractServices =
  | RecommendationRepository
  | RunRepository
  | CatalogRepository
  | WorkspaceRepository
  | IdGenerator

/** A workspace with one run and `count` items (SKU-1..SKU-n). */
const scene = Effect.fnUntraced(function* (count: number) {
  const workspace = yield* seedWorkspace()
  const run = yield* seedRun(workspace.id)
  const items: Array<CatalogItem> = []
  for (let n = 1; n <= count; n++) items.push(yield* seedItem(workspace.id, { sku: `SKU-${n}` }))
  return { workspace, run, items }
})

const accept = (now: number) => (current: Recommendation) =>
  current.status === "new"
    ? Outcome.transitioned(current, { ...current, status: "pending_approval", acceptedAt: now, updatedAt: now })
    : Outcome.idempotentRepeat(current)

const statusesOf = Effect.fnUntraced(function* (
  workspaceId: WorkspaceId,
  recommendations: ReadonlyArray<Recommendation>
) {
  const repository = yield* RecommendationRepository
  const statuses: Array<string> = []
  for (const recommendation of recommendations) {
    const stored = yield* expectSome(yield* repository.get(workspaceId, recommendation.id), recommendation.id)
    statuses.push(stored.status)
  }
  return statuses
})

/** The RecommendationRepository port's contract: every adapter must pass it. */
export const recommendationRepositoryContract = <E>(
  name: string,
  services: Layer.Layer<RecommendationContractServices, E>
) =>
  layer(services)(`RecommendationRepository contract (${name})`, (it) => {
    it.effect("get finds a recommendation in its own workspace only", () =>
      Effect.gen(function* () {
        const repository = yield* RecommendationRepository
        const { workspace, run, items } = yield* scene(1)
        const other = yield* seedWorkspace()
        const [item] = items
        const recommendation = yield* seedRecommendation(run, item)
        assert.deepStrictEqual(yield* repository.get(workspace.id, recommendation.id), Option.some(recommendation))
        assert.isTrue(Option.isNone(yield* repository.get(other.id, recommendation.id)))
        const unknown = yield* freshId("recommendation", RecommendationId.make)
        assert.isTrue(Option.isNone(yield* repository.get(workspace.id, unknown)))
      })
    )

    it.effect("list pages newest first by limit and cursor, stable under equal timestamps", () =>
      Effect.gen(function* () {
        const repository = yield* RecommendationRepository
        const { workspace, run, items } = yield* scene(7)
        const other = yield* scene(1)
        const createdAts = [1, 2, 2, 2, 3, 5, 4].map((minutes) => fixtureNow + minutes * minuteMs)
        const stored: Array<Recommendation> = []
        for (const [index, item] of items.entries()) {
          stored.push(yield* seedRecommendation(run, item, { createdAt: createdAts[index] }))
        }
        const [otherItem] = other.items
        yield* seedRecommendation(other.run, otherItem)
        const list = (request: { limit: number; cursor: null | { createdAt: number; id: string } }) =>
          repository.list(workspace.id, { status: null, runId: null }, request)
        for (const limit of [1, 2, 3, 7, 50]) yield* assertPaging(list, createdAtKey, stored, limit)
      })
    )

    it.effect("list filters by status and by run", () =>
      Effect.gen(function* () {
        const repository = yield* RecommendationRepository
        const { workspace, run, items } = yield* scene(3)
        const [first, second, third] = items
        const laterRun = yield* seedRun(workspace.id)
        const fresh = yield* seedRecommendation(run, first)
        const pending = yield* seedRecommendation(run, second, { status: "pending_approval" })
        const later = yield* seedRecommendation(laterRun, third)
        const ids = (page: { items: ReadonlyArray<Recommendation> }) => page.items.map((r) => r.id).sort()
        const page = { limit: 50, cursor: null }
        assert.deepStrictEqual(
          ids(yield* repository.list(workspace.id, { status: "new", runId: null }, page)),
          [fresh.id, later.id].sort()
        )
        assert.deepStrictEqual(
          ids(yield* repository.list(workspace.id, { status: "pending_approval", runId: null }, page)),
          [pending.id]
        )
        assert.deepStrictEqual(
          ids(yield* repository.list(workspace.id, { status: null, runId: run.id }, page)),
          [fresh.id, pending.id].sort()
        )
        assert.deepStrictEqual(ids(yield* repository.list(workspace.id, { status: "new", runId: laterRun.id }, page)), [
          later.id
        ])
      })
    )

    it.effect("list filters by item, by rule and by the item's tag, within the workspace", () =>
      Effect.gen(function* () {
        const repository = yield* RecommendationRepository
        const workspace = yield* seedWorkspace()
        const run = yield* seedRun(workspace.id)
        const shoe = yield* seedItem(workspace.id, { sku: "SHOE-1", tags: ["shoes", "summer"] })
        const hat = yield* seedItem(workspace.id, { sku: "HAT-1", tags: ["hats"] })
        const other = yield* scene(1)
        const [otherItem] = other.items
        const onShoe = yield* seedRecommendation(run, shoe, { rule: "below_profit_optimum" })
        const onHat = yield* seedRecommendation(run, hat, { rule: "below_floor" })
        yield* seedRecommendation(other.run, otherItem, { rule: "below_floor" })
        const ids = (page: { items: ReadonlyArray<Recommendation> }) => page.items.map((r) => r.id)
        const page = { limit: 50, cursor: null }
        const list = (filter: Partial<RecommendationFilter>) =>
          repository.list(workspace.id, { status: null, runId: null, ...filter }, page).pipe(Effect.map(ids))
        assert.deepStrictEqual(yield* list({ itemId: shoe.id }), [onShoe.id])
        assert.deepStrictEqual(yield* list({ itemId: otherItem.id }), [])
        assert.deepStrictEqual(yield* list({ rule: "below_floor" }), [onHat.id])
        assert.deepStrictEqual(yield* list({ tag: "summer" }), [onShoe.id])
        assert.deepStrictEqual(yield* list({ tag: "hats", rule: "below_floor" }), [onHat.id])
        assert.deepStrictEqual(yield* list({ tag: "hats", rule: "below_profit_optimum" }), [])
        assert.deepStrictEqual(yield* list({ tag: "boots" }), [])
      })
    )

    it.effect("update saves a transition and bumps the version", () =>
      Effect.gen(function* () {
        const repository = yield* RecommendationRepository
        const { workspace, run, items } = yield* scene(1)
        const [item] = items
        const recommendation = yield* seedRecommendation(run, item)
        const now = fixtureNow + minuteMs
        const outcome = yield* expectSome(
          yield* repository.update(workspace.id, recommendation.id, accept(now)),
          "an outcome"
        )
        assert.strictEqual(outcome._tag, "Transitioned")
        const stored = yield* expectSome(yield* repository.get(workspace.id, recommendation.id), "the recommendation")
        assert.strictEqual(stored.status, "pending_approval")
        assert.strictEqual(stored.acceptedAt, now)
        assert.strictEqual(stored.version, recommendation.version + 1)
        assert.deepStrictEqual(Outcome.current(outcome), stored, "the outcome carries the saved row")
      })
    )

    it.effect("update saves the same kind of transition on several recommendations, each as decided", () =>
      Effect.gen(function* () {
        // An adapter may reuse what it prepared for a set of changed columns: every save must still
        // write its own values.
        const repository = yield* RecommendationRepository
        const { workspace, run, items } = yield* scene(3)
        for (const [index, item] of items.entries()) {
          const recommendation = yield* seedRecommendation(run, item)
          const now = fixtureNow + (index + 1) * minuteMs
          const outcome = yield* expectSome(
            yield* repository.update(workspace.id, recommendation.id, accept(now)),
            "an outcome"
          )
          const stored = yield* expectSome(yield* repository.get(workspace.id, recommendation.id), "the recommendation")
          assert.strictEqual(stored.status, "pending_approval")
          assert.strictEqual(stored.acceptedAt, now)
          assert.strictEqual(stored.updatedAt, now)
          assert.strictEqual(stored.version, recommendation.version + 1)
          assert.strictEqual(stored.sku, item.sku)
          assert.deepStrictEqual(Outcome.current(outcome), stored, "the outcome carries the saved row")
        }
      })
    )

    it.effect("update saves nothing for a repeat or a conflict", () =>
      Effect.gen(function* () {
        const repository = yield* RecommendationRepository
        const { workspace, run, items } = yield* scene(1)
        const [item] = items
        const recommendation = yield* seedRecommendation(run, item)
        const repeat = yield* repository.update(workspace.id, recommendation.id, (current) =>
          Outcome.idempotentRepeat({ ...current, status: "approved" })
        )
        assert.strictEqual(Option.getOrUndefined(repeat)?._tag, "IdempotentRepeat")
        const conflict = yield* repository.update(workspace.id, recommendation.id, (current) =>
          Outcome.conflict({ ...current, status: "rejected" }, "not allowed")
        )
        assert.strictEqual(Option.getOrUndefined(conflict)?._tag, "Conflict")
        assert.deepStrictEqual(yield* repository.get(workspace.id, recommendation.id), Option.some(recommendation))
      })
    )

    it.effect("update is None for another workspace's or an unknown recommendation, and does not decide", () =>
      Effect.gen(function* () {
        const repository = yield* RecommendationRepository
        const { run, items } = yield* scene(1)
        const other = yield* seedWorkspace()
        const [item] = items
        const recommendation = yield* seedRecommendation(run, item)
        let decided = 0
        const decide = (current: Recommendation) => {
          decided++
          return Outcome.transitioned(current, { ...current, status: "dismissed" as const })
        }
        assert.isTrue(Option.isNone(yield* repository.update(other.id, recommendation.id, decide)))
        const unknown = yield* freshId("recommendation", RecommendationId.make)
        assert.isTrue(Option.isNone(yield* repository.update(run.workspaceId, unknown, decide)))
        assert.strictEqual(decided, 0)
        assert.strictEqual((yield* statusesOf(run.workspaceId, [recommendation]))[0], "new")
      })
    )

    it.effect("concurrent updates of one recommendation: exactly one transition takes effect", () =>
      Effect.gen(function* () {
        const repository = yield* RecommendationRepository
        const { workspace, run, items } = yield* scene(1)
        const [item] = items
        const recommendation = yield* seedRecommendation(run, item)
        const outcomes = yield* Effect.all(
          Array.from({ length: 10 }, () => repository.update(workspace.id, recommendation.id, accept(fixtureNow))),
          { concurrency: "unbounded" }
        )
        const tags = outcomes.map((outcome) => Option.getOrUndefined(outcome)?._tag)
        assert.strictEqual(tags.filter((tag) => tag === "Transitioned").length, 1)
        assert.strictEqual(tags.filter((tag) => tag === "IdempotentRepeat").length, 9)
        const stored = yield* expectSome(yield* repository.get(workspace.id, recommendation.id), "the recommendation")
        assert.strictEqual(stored.version, recommendation.version + 1)
      })
    )

    it.effect("insertMany skips a (run, item) pair already stored, also within one batch", () =>
      Effect.gen(function* () {
        const repository = yield* RecommendationRepository
        const { workspace, run, items } = yield* scene(3)
        const [first, second, third] = items
        const a = yield* newRecommendation(run, first)
        const b = yield* newRecommendation(run, second)
        assert.strictEqual(yield* repository.insertMany([a, b]), 2)
        const again = yield* newRecommendation(run, first, { recommendedPrice: 1299 })
        const c = yield* newRecommendation(run, third)
        const cTwice = yield* newRecommendation(run, third)
        assert.strictEqual(yield* repository.insertMany([again, c, cTwice]), 1)
        assert.deepStrictEqual(yield* repository.get(workspace.id, a.id), Option.some(a))
        assert.isTrue(Option.isNone(yield* repository.get(workspace.id, again.id)))
        const page = yield* repository.list(workspace.id, { status: null, runId: run.id }, { limit: 50, cursor: null })
        assert.strictEqual(page.items.length, 3)
        assert.strictEqual(yield* repository.insertMany([]), 0)
      })
    )

    it.effect("supersedeOpen supersedes only the open recommendations of those items from other runs", () =>
      Effect.gen(function* () {
        const repository = yield* RecommendationRepository
        const { workspace, run, items } = yield* scene(4)
        const [one, two, three, four] = items
        const older = [
          yield* seedRecommendation(run, one),
          yield* seedRecommendation(run, two, { status: "pending_approval" }),
          yield* seedRecommendation(run, three, { status: "approved" }),
          yield* seedRecommendation(run, four)
        ]
        const newerRun = yield* seedRun(workspace.id)
        const newer = yield* seedRecommendation(newerRun, one)
        const elsewhere = yield* scene(1)
        const [foreignItem] = elsewhere.items
        const foreign = yield* seedRecommendation(elsewhere.run, foreignItem)
        const now = fixtureNow + 5 * minuteMs
        const count = yield* repository.supersedeOpen(
          workspace.id,
          [one.id, two.id, three.id, foreignItem.id],
          newerRun.id,
          now
        )
        assert.strictEqual(count, 2)
        assert.deepStrictEqual(yield* statusesOf(workspace.id, older), ["superseded", "superseded", "approved", "new"])
        assert.deepStrictEqual(yield* statusesOf(workspace.id, [newer]), ["new"])
        assert.deepStrictEqual(yield* statusesOf(elsewhere.workspace.id, [foreign]), ["new"])
        const superseded = yield* expectSome(yield* repository.get(workspace.id, older[0].id), "superseded")
        assert.strictEqual(superseded.updatedAt, now)
        assert.strictEqual(superseded.version, older[0].version + 1)
      })
    )

    it.effect("hasOpen says whether another run left an open recommendation in the workspace", () =>
      Effect.gen(function* () {
        const repository = yield* RecommendationRepository
        const { workspace, run, items } = yield* scene(2)
        const [one, two] = items
        const newerRun = yield* seedRun(workspace.id)
        assert.isFalse(yield* repository.hasOpen(workspace.id, newerRun.id), "nothing yet")
        const decided = yield* seedRecommendation(run, one, { status: "approved" })
        assert.isFalse(yield* repository.hasOpen(workspace.id, newerRun.id), "a decided one is not open")
        yield* seedRecommendation(newerRun, two)
        assert.isFalse(yield* repository.hasOpen(workspace.id, newerRun.id), "the run's own do not count")
        yield* seedRecommendation(run, two, { status: "pending_approval" })
        assert.isTrue(yield* repository.hasOpen(workspace.id, newerRun.id))
        assert.isTrue(yield* repository.hasOpen(workspace.id, run.id))
        const elsewhere = yield* scene(0)
        assert.isFalse(yield* repository.hasOpen(elsewhere.workspace.id, newerRun.id), "per workspace")
        assert.strictEqual(decided.status, "approved")
      })
    )

    it.effect("hasDecisions says whether a recommendation of the workspace was ever decided on", () =>
      Effect.gen(function* () {
        const repository = yield* RecommendationRepository
        const { workspace, run, items } = yield* scene(3)
        const [one, two, three] = items
        yield* seedRecommendation(run, one)
        yield* seedRecommendation(run, two, { status: "superseded" })
        assert.isFalse(yield* repository.hasDecisions(workspace.id), "new and superseded are no decisions")
        yield* seedRecommendation(run, three, { status: "dismissed" })
        assert.isTrue(yield* repository.hasDecisions(workspace.id))
        const elsewhere = yield* scene(0)
        assert.isFalse(yield* repository.hasDecisions(elsewhere.workspace.id), "per workspace")
      })
    )

    it.effect("decisionsFor answers each asked item's latest decided recommendation, with its basis", () =>
      Effect.gen(function* () {
        const repository = yield* RecommendationRepository
        const { workspace, run, items } = yield* scene(4)
        const [one, two, three, four] = items
        const later = yield* seedRun(workspace.id)
        const at = (minutes: number) => fixtureNow + minutes * minuteMs
        const basis = { cost: 650, competitorPrice: 1050, policy: "0.35;0.15;0.1;99;0.01;profit;-1.5;0.1" }
        // one: rejected, then applied later: the applied one is the latest decision.
        yield* seedRecommendation(run, one, { status: "rejected", createdAt: at(1) })
        const applied = yield* seedRecommendation(later, one, { status: "applied", createdAt: at(2) })
        // two: dismissed, then a newer undecided one: the dismissal is still the latest decision.
        const dismissed = yield* seedRecommendation(run, two, {
          status: "dismissed",
          createdAt: at(1),
          basis,
          elasticity: -2.1,
          elasticityInterval: [-2.4, -1.8]
        })
        yield* seedRecommendation(later, two, { status: "new", createdAt: at(2) })
        // three: only superseded; four: not asked for.
        yield* seedRecommendation(run, three, { status: "superseded", createdAt: at(1) })
        yield* seedRecommendation(run, four, { status: "pending_approval", createdAt: at(1) })
        const elsewhere = yield* scene(1)
        const [foreignItem] = elsewhere.items
        yield* seedRecommendation(elsewhere.run, foreignItem, { status: "rejected" })
        const found = yield* repository.decisionsFor(workspace.id, [one.id, two.id, three.id, foreignItem.id])
        assert.deepStrictEqual(
          [...found].sort((a, b) => (a.itemId < b.itemId ? -1 : 1)),
          [priorDecisionOf(applied), priorDecisionOf(dismissed)].sort((a, b) => (a.itemId < b.itemId ? -1 : 1))
        )
        assert.deepStrictEqual(found.find((decision) => decision.itemId === two.id)?.basis, basis)
        assert.deepStrictEqual(yield* repository.decisionsFor(workspace.id, []), [])
      })
    )

    it.effect("supersedeAccepted supersedes accepted recommendations with what replaced them and why", () =>
      Effect.gen(function* () {
        const repository = yield* RecommendationRepository
        const { workspace, run, items } = yield* scene(3)
        const [one, two, three] = items
        const newerRun = yield* seedRun(workspace.id)
        const accepted = yield* seedRecommendation(run, one, { status: "pending_approval" })
        const approved = yield* seedRecommendation(run, two, { status: "approved" })
        const replacement = yield* seedRecommendation(newerRun, one)
        const own = yield* seedRecommendation(newerRun, three, { status: "pending_approval" })
        const elsewhere = yield* scene(1)
        const [foreignItem] = elsewhere.items
        const foreign = yield* seedRecommendation(elsewhere.run, foreignItem, { status: "pending_approval" })
        const now = fixtureNow + 5 * minuteMs
        const note = (target: Recommendation) => ({
          id: target.id,
          supersededBy: replacement.id,
          reason: "Superseded by a newer run's recommendation of 11.99 USD: the cost went from 6.50 USD to 7.00 USD."
        })
        const count = yield* repository.supersedeAccepted(
          workspace.id,
          [note(accepted), note(approved), note(own), note(foreign)],
          newerRun.id,
          now
        )
        assert.strictEqual(count, 1)
        const superseded = yield* expectSome(yield* repository.get(workspace.id, accepted.id), "superseded")
        assert.deepStrictEqual(superseded, {
          ...accepted,
          status: "superseded",
          supersededBy: replacement.id,
          supersededReason: note(accepted).reason,
          updatedAt: now,
          version: accepted.version + 1
        })
        assert.deepStrictEqual(yield* statusesOf(workspace.id, [approved, own]), ["approved", "pending_approval"])
        assert.deepStrictEqual(yield* statusesOf(elsewhere.workspace.id, [foreign]), ["pending_approval"])
        assert.strictEqual(yield* repository.supersedeAccepted(workspace.id, [], newerRun.id, now), 0)
      })
    )

    it.effect("stream yields every recommendation of the workspace, newest first", () =>
      Effect.gen(function* () {
        const repository = yield* RecommendationRepository
        const { workspace, run, items } = yield* scene(6)
        const other = yield* scene(1)
        const stored: Array<Recommendation> = []
        for (const [index, item] of items.entries()) {
          stored.push(yield* seedRecommendation(run, item, { createdAt: fixtureNow + (index % 3) * minuteMs }))
        }
        const [otherItem] = other.items
        yield* seedRecommendation(other.run, otherItem)
        const streamed = yield* Stream.runCollect(repository.stream(workspace.id))
        const expected = [...stored].sort(newestFirst)
        assert.deepStrictEqual(
          streamed.map((r) => r.id),
          expected.map((r) => r.id)
        )
      })
    )
  })
