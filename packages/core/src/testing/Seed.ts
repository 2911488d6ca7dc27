/**
 * Seeding through the ports only, so that a contract suite runs unchanged against any adapter
 * (memory, Postgres): every seeded row gets fresh ids from the IdGenerator, which keeps tests
 * that share one database apart, and rows that reference others (a recommendation's run and
 * item) are created through their own repositories first.
 */
import { Effect, Option, Stream } from "effect"
import type { User } from "../access/User.ts"
import { UserRepository } from "../access/UserRepository.ts"
import type { Alert } from "../alerts/Alert.ts"
import type { CatalogItem, CatalogItemInput } from "../catalog/CatalogItem.ts"
import { CatalogRepository } from "../catalog/CatalogRepository.ts"
import { RepositoryError } from "../kernel/Errors.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import {
  AlertId,
  type CatalogItemId,
  type IdKind,
  RecommendationId,
  RunId,
  UserId,
  WorkspaceId,
  WriteBackId
} from "../kernel/Ids.ts"
import type { Recommendation } from "../recommendations/Recommendation.ts"
import { RecommendationRepository } from "../recommendations/RecommendationRepository.ts"
import type { Run } from "../runs/Run.ts"
import { RunRepository } from "../runs/RunRepository.ts"
import type { Workspace } from "../workspaces/Workspace.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import type { WriteBack } from "../writeback/WriteBack.ts"
import {
  aCatalogItemInput,
  anAlert,
  aRecommendation,
  aRun,
  aUser,
  aWorkspace,
  aWriteBack,
  aWriteBackPayload,
  fixtureNow
} from "./Fixtures.ts"

/** A fresh id of `kind`, branded by `make`. */
export const freshId = <A>(kind: IdKind, make: (id: string) => A): Effect.Effect<A, never, IdGenerator> =>
  Effect.map(
    IdGenerator.use((ids) => ids.next(kind)),
    make
  )

/** A stored workspace with a fresh id (and a name no other test uses). */
export const seedWorkspace = Effect.fnUntraced(function* (overrides: Partial<Workspace> = {}) {
  const id = yield* freshId("workspace", WorkspaceId.make)
  const workspace = aWorkspace({ id, name: `Contract ${id}`, ...overrides })
  yield* WorkspaceRepository.use((repository) => repository.insert(workspace))
  return workspace
})

/** A stored user with a fresh id and e-mail address. */
export const seedUser = Effect.fnUntraced(function* (overrides: Partial<User> = {}) {
  const id = yield* freshId("user", UserId.make)
  const user = aUser({ id, email: `${id}@contract.example`, ...overrides })
  yield* UserRepository.use((repository) => repository.insert(user))
  return user
})

/** Reads back the item an upsert stored under `sku`; a missing one is a broken adapter, so a defect. */
export const itemBySku = Effect.fnUntraced(function* (workspaceId: WorkspaceId, sku: string) {
  const catalog = yield* CatalogRepository
  const chunks = yield* Stream.runCollect(catalog.streamForRun(workspaceId, [], 500))
  const item = chunks.flat().find((candidate) => candidate.sku === sku)
  return item === undefined ? yield* Effect.die(`no catalog item ${sku} in ${workspaceId}`) : item
})

/** A stored catalog item of `workspaceId` (imported through `upsertMany`, as the CLI does). */
export const seedItem = Effect.fnUntraced(function* (
  workspaceId: WorkspaceId,
  overrides: Partial<CatalogItemInput> = {},
  now: number = fixtureNow
) {
  const input = aCatalogItemInput(overrides)
  yield* CatalogRepository.use((catalog) => catalog.upsertMany(workspaceId, [input], now))
  return yield* itemBySku(workspaceId, input.sku)
})

/** A stored run of `workspaceId` with a fresh id. */
export const seedRun = Effect.fnUntraced(function* (workspaceId: WorkspaceId, overrides: Partial<Run> = {}) {
  const run = aRun({ id: yield* freshId("run", RunId.make), workspaceId, ...overrides })
  yield* RunRepository.use((runs) => runs.insert(run))
  return run
})

/** An unsaved recommendation of `run` for `item`, with a fresh id. */
export const newRecommendation = Effect.fnUntraced(function* (
  run: Run,
  item: CatalogItem,
  overrides: Partial<Recommendation> = {}
) {
  return aRecommendation({
    id: yield* freshId("recommendation", RecommendationId.make),
    workspaceId: run.workspaceId,
    runId: run.id,
    itemId: item.id,
    sku: item.sku,
    currency: item.currency,
    currentPrice: item.price,
    ...overrides
  })
})

/** A stored recommendation of `run` for `item`. */
export const seedRecommendation = Effect.fnUntraced(function* (
  run: Run,
  item: CatalogItem,
  overrides: Partial<Recommendation> = {}
) {
  const recommendation = yield* newRecommendation(run, item, overrides)
  const inserted = yield* RecommendationRepository.use((repository) => repository.insertMany([recommendation]))
  return inserted === 1
    ? recommendation
    : yield* new RepositoryError({ operation: "seedRecommendation", message: "the recommendation was not inserted" })
})

/** An unsaved open alert of `workspaceId` (about `itemId`, or about no item), with a fresh id. */
export const newAlert = Effect.fnUntraced(function* (
  workspaceId: WorkspaceId,
  itemId: CatalogItemId | null,
  overrides: Partial<Alert> = {}
) {
  return anAlert({ id: yield* freshId("alert", AlertId.make), workspaceId, runId: null, itemId, ...overrides })
})

/** An unsaved, due outbox row for `recommendation`, with a fresh id. */
export const newWriteBack = Effect.fnUntraced(function* (
  recommendation: Recommendation,
  overrides: Partial<WriteBack> = {}
) {
  return aWriteBack({
    id: yield* freshId("writeBack", WriteBackId.make),
    workspaceId: recommendation.workspaceId,
    recommendationId: recommendation.id,
    idempotencyKey: recommendation.id,
    payload: aWriteBackPayload({
      itemId: recommendation.itemId,
      sku: recommendation.sku,
      currency: recommendation.currency,
      oldPrice: recommendation.currentPrice,
      newPrice: recommendation.recommendedPrice
    }),
    ...overrides
  })
})

/** Unwraps an Option a test expects to be Some; None is a failed expectation, so a defect. */
export const expectSome = <A>(option: Option.Option<A>, what: string): Effect.Effect<A> =>
  Option.isSome(option) ? Effect.succeed(option.value) : Effect.die(`expected ${what}`)
