import { Cause, Clock, Context, Effect, Layer, Option, Stream } from "effect"
import type { Alert } from "../alerts/Alert.ts"
import * as AlertMachine from "../alerts/AlertMachine.ts"
import { AlertRepository } from "../alerts/AlertRepository.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { CatalogRepository, type RunItem } from "../catalog/CatalogRepository.ts"
import { RepositoryError, ResourceNotFound, type TransitionConflict } from "../kernel/Errors.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import type { CatalogItemId } from "../kernel/Ids.ts"
import { Transactor } from "../kernel/Transactor.ts"
import {
  type ElasticityPools,
  poolsFromFits,
  priorPools,
  type TaggedFit,
  taggedFits
} from "../pricing/ElasticityPools.ts"
import { analyseItem, type PricingInput } from "../pricing/Pricing.ts"
import type { PricingPolicy } from "../pricing/PricingPolicy.ts"
import { type PriorDecision, recall } from "../recommendations/DecisionMemory.ts"
import type { Recommendation } from "../recommendations/Recommendation.ts"
import { policyKey } from "../recommendations/RecommendationBasis.ts"
import * as RecommendationMachine from "../recommendations/RecommendationMachine.ts"
import { RecommendationRepository, type SupersedeNote } from "../recommendations/RecommendationRepository.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import type { Run } from "./Run.ts"
import * as Machine from "./RunMachine.ts"
import { type RunProgress, RunRepository } from "./RunRepository.ts"

export interface RunExecutorConfig {
  /** Catalog items analysed and written per transaction: memory stays bounded by it. */
  readonly chunkSize: number
  /** Chunks read ahead of the one being analysed: reading, analysing and writing overlap. */
  readonly readAhead: number
  /** Chunk transactions in flight at once, each on its own connection. */
  readonly writers: number
}

/**
 * 5,000 items a chunk: a million-item run is 200 transactions of a few statements each. Measured
 * against 1,000 and 2,000 it spends less CPU (worker and database) per item, mostly in the
 * superseding run, for ~20 MB more resident set; 10,000 gained little more for another ~25 MB.
 */
export const defaultRunExecutorConfig: RunExecutorConfig = { chunkSize: 5_000, readAhead: 2, writers: 2 }

/** The label of the executor in audit events. */
const systemActor = "system:run-executor"

/** A run sees an item like this; the store price is not tracked on catalog items, so it is unknown. */
export const pricingInput = (item: RunItem): PricingInput<CatalogItemId> => ({
  itemId: item.id,
  sku: item.sku,
  currency: item.currency,
  price: item.price,
  cost: item.cost,
  minPrice: item.minPrice,
  maxPrice: item.maxPrice,
  unitsSold30d: item.unitsSold30d,
  previousCost: item.analysedCost,
  storePrice: null,
  priceHistory: item.priceHistory,
  tags: item.tags,
  competitorPrice: item.competitorPrice
})

/** What one chunk's analysis writes, and what it found. */
interface AnalysedChunk {
  readonly items: number
  readonly recommendations: ReadonlyArray<Recommendation>
  /** Accepted recommendations the new ones supersede, with why. */
  readonly supersedes: ReadonlyArray<SupersedeNote>
  readonly alerts: ReadonlyArray<Alert>
  /** The items whose cost moved from their snapshot: only those need a new one. */
  readonly snapshots: ReadonlyArray<{ readonly id: CatalogItemId; readonly cost: number | null }>
  readonly alertsFound: number
}

/**
 * Executes a claimed run (docs/pricing.md): start it, stream the catalog in
 * chunks through the pure engine, which remembers the merchant's decisions on the chunk's items
 * (DecisionMemory), and, per chunk and in one transaction, supersede the accepted recommendations
 * it replaces (with a note) and the open ones of the items that get a new one, insert the new ones,
 * raise the alerts and remember the costs that moved; record the progress after each chunk. Then
 * succeed, or fail with the reason.
 *
 * Safe to execute again after a crash: `start` on a running run is a repeat, `insertMany` skips
 * (run, item) pairs already written and `raiseMany` skips alerts still open, so nothing is stored
 * twice. The run's counts are those of the last execution's analysis: chunks the crashed execution
 * completed have already moved their cost snapshot, so their `cost_changed` findings (stored then)
 * are not counted again.
 */
export class RunExecutor extends Context.Service<
  RunExecutor,
  {
    /** Answers the run as it ends: succeeded or failed, or untouched when it was not runnable (cancelled, finished). */
    readonly execute: (run: Run) => Effect.Effect<Run, ResourceNotFound | RepositoryError>
  }
>()("margin/core/RunExecutor") {
  static readonly layerWith = (overrides: Partial<RunExecutorConfig>) =>
    Layer.effect(
      RunExecutor,
      Effect.gen(function* () {
        const config: RunExecutorConfig = { ...defaultRunExecutorConfig, ...overrides }
        const runs = yield* RunRepository
        const workspaces = yield* WorkspaceRepository
        const catalog = yield* CatalogRepository
        const recommendations = yield* RecommendationRepository
        const alerts = yield* AlertRepository
        const ids = yield* IdGenerator
        const transactor = yield* Transactor
        const trail = yield* AuditTrail

        /** One run command, audited, in its own transaction. */
        const command = (
          run: Run,
          next: Machine.RunCommand
        ): Effect.Effect<Run, ResourceNotFound | TransitionConflict | RepositoryError> =>
          Effect.flatMap(Clock.currentTimeMillis, (now) =>
            transactor.transaction(
              Effect.flatMap(
                runs.update(run.workspaceId, run.id, (current) => Machine.decide(current, next, now)),
                (found) =>
                  trail.transition(
                    {
                      workspaceId: run.workspaceId,
                      actor: systemActor,
                      action: `run.${Machine.commandName(next)}`,
                      resourceType: "run",
                      resourceId: run.id,
                      at: now
                    },
                    found
                  )
              )
            )
          ).pipe(Effect.map((settled) => (settled._tag === "Transitioned" ? settled.after : settled.current)))

        /**
         * The pure engine over one chunk, remembering the merchant's decisions on its items (read only
         * when the workspace has decided something), and the rows it makes; no I/O but the decisions and fresh ids.
         */
        const analyseChunk = (
          run: Run,
          policy: PricingPolicy,
          pools: ElasticityPools,
          remembers: boolean,
          chunk: ReadonlyArray<RunItem>
        ) =>
          Effect.gen(function* () {
            const now = yield* Clock.currentTimeMillis
            const decisions = new Map<string, PriorDecision>()
            if (remembers) {
              const found = yield* recommendations.decisionsFor(
                run.workspaceId,
                chunk.map((item) => item.id)
              )
              for (const decision of found) decisions.set(decision.itemId, decision)
            }
            const key = policyKey(policy)
            const made: Array<Recommendation> = []
            const supersedes: Array<SupersedeNote> = []
            const alerts: Array<Alert> = []
            const snapshots: Array<{ readonly id: CatalogItemId; readonly cost: number | null }> = []
            let alertsFound = 0
            for (const item of chunk) {
              const analysis = analyseItem(pricingInput(item), policy, pools)
              const origin = { workspaceId: run.workspaceId, runId: run.id, itemId: item.id }
              const recalled = recall(decisions.get(item.id) ?? null, item, key, analysis.recommendation)
              if (recalled.recommendation !== null) {
                const id = yield* ids.next("recommendation")
                const basis = { cost: item.cost, competitorPrice: item.competitorPrice, policy: key }
                const recommendation = RecommendationMachine.recommend(
                  id,
                  { ...origin, sku: item.sku },
                  recalled.recommendation,
                  now,
                  basis
                )
                made.push(recommendation)
                if (recalled.supersedes !== null)
                  supersedes.push({ ...recalled.supersedes, supersededBy: recommendation.id })
              }
              for (const finding of analysis.alerts)
                alerts.push(AlertMachine.raise(yield* ids.next("alert"), origin, finding, now))
              alertsFound += analysis.alerts.length
              if (item.cost !== item.analysedCost) snapshots.push({ id: item.id, cost: item.cost })
            }
            return {
              items: chunk.length,
              recommendations: made,
              supersedes,
              alerts,
              snapshots,
              alertsFound
            } satisfies AnalysedChunk
          })

        /**
         * Writes one chunk's results atomically: supersedes the open recommendations of its items,
         * inserts the new ones, raises the alerts and moves the cost snapshots that changed.
         * `supersede` is false when no other run had an open recommendation in the workspace as this
         * one started: then there is nothing to supersede, and a catalog's first run skips the
         * lookups altogether. Chunks hold distinct items, so their transactions never meet.
         */
        const writeChunk = (run: Run, supersede: boolean, chunk: AnalysedChunk) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) =>
            transactor.transaction(
              Effect.gen(function* () {
                if (chunk.supersedes.length > 0)
                  yield* recommendations.supersedeAccepted(run.workspaceId, chunk.supersedes, run.id, now)
                if (chunk.recommendations.length > 0) {
                  if (supersede) {
                    const items = chunk.recommendations.map((recommendation) => recommendation.itemId)
                    yield* recommendations.supersedeOpen(run.workspaceId, items, run.id, now)
                  }
                  yield* recommendations.insertMany(chunk.recommendations)
                }
                if (chunk.alerts.length > 0) yield* alerts.raiseMany(chunk.alerts)
                if (chunk.snapshots.length > 0) yield* catalog.markAnalysed(run.workspaceId, chunk.snapshots)
              })
            )
          ).pipe(Effect.as(chunk))

        /** The progress after one more chunk, recorded: the chunks arrive in order, so it only grows. */
        const recordChunk = (run: Run, progress: RunProgress, chunk: AnalysedChunk) => {
          const next: RunProgress = {
            itemsTotal: progress.itemsTotal,
            itemsAnalysed: progress.itemsAnalysed + chunk.items,
            recommendationsCount: progress.recommendationsCount + chunk.recommendations.length,
            alertsCount: progress.alertsCount + chunk.alertsFound
          }
          return Effect.as(runs.recordProgress(run.workspaceId, run.id, next), next)
        }

        /**
         * The elasticity pools of the whole workspace (whatever the run's scope: more evidence), from the
         * items with a price history only; the target-margin objective does not use them.
         */
        const poolsOf = (run: Run, policy: PricingPolicy) =>
          policy.objective === "profit"
            ? catalog.streamElasticityEvidence(run.workspaceId, config.chunkSize).pipe(
                Stream.runFold(
                  (): Array<TaggedFit> => [],
                  (fits, chunk) => {
                    for (const fit of taggedFits(chunk)) fits.push(fit)
                    return fits
                  }
                ),
                Effect.map((fits) => poolsFromFits(fits, policy.defaultElasticity))
              )
            : Effect.succeed(priorPools(policy.defaultElasticity))

        const analyse = (run: Run) =>
          Effect.gen(function* () {
            const workspace = yield* workspaces.get(run.workspaceId)
            if (Option.isNone(workspace)) {
              return yield* new ResourceNotFound({ resource: "workspace", id: run.workspaceId })
            }
            const itemsTotal = yield* catalog.countForRun(run.workspaceId, run.subsetTags)
            const start: RunProgress = { itemsTotal, itemsAnalysed: 0, recommendationsCount: 0, alertsCount: 0 }
            yield* runs.recordProgress(run.workspaceId, run.id, start)
            const policy = workspace.value.pricingPolicy
            const pools = yield* poolsOf(run, policy)
            const supersede = yield* recommendations.hasOpen(run.workspaceId, run.id)
            const remembers = yield* recommendations.hasDecisions(run.workspaceId)
            // Stages on their own fibers: the next chunks are read while one is analysed and the ones
            // before it are written, `writers` transactions at a time on as many connections (the
            // database's share of a run is the larger one). Progress follows in chunk order.
            return yield* catalog.streamRunItems(run.workspaceId, run.subsetTags, config.chunkSize).pipe(
              Stream.buffer({ capacity: config.readAhead }),
              Stream.mapEffect((chunk) => analyseChunk(run, policy, pools, remembers, chunk)),
              Stream.buffer({ capacity: config.writers }),
              Stream.mapEffect((chunk) => writeChunk(run, supersede, chunk), { concurrency: config.writers }),
              Stream.runFoldEffect(
                () => start,
                (progress, chunk: AnalysedChunk) => recordChunk(run, progress, chunk)
              )
            )
          })

        const execute = Effect.fn("RunExecutor.execute")(function* (claimed: Run) {
          yield* Effect.annotateCurrentSpan({ run: claimed.id, workspace: claimed.workspaceId })
          const started = yield* command(claimed, Machine.start)
          if (started.status !== "running") return started
          return yield* analyse(started).pipe(
            Effect.andThen(command(started, Machine.succeed)),
            // The run records why it failed, defects included; an interrupted worker leaves it running
            // for the next claim to execute again.
            Effect.catchCause((cause) =>
              Cause.hasInterruptsOnly(cause)
                ? Effect.failCause(cause)
                : Effect.logError("run failed", cause).pipe(
                    Effect.andThen(command(started, Machine.fail(failureMessage(cause))))
                  )
            )
          )
        })

        return RunExecutor.of({
          execute: (run) =>
            execute(run).pipe(
              // A conflict here means someone else finished or cancelled the run meanwhile: answer it as it is.
              Effect.catchTag("TransitionConflict", () =>
                Effect.flatMap(runs.get(run.workspaceId, run.id), (found) =>
                  Option.isSome(found)
                    ? Effect.succeed(found.value)
                    : Effect.fail(new ResourceNotFound({ resource: "run", id: run.id }))
                )
              )
            )
        })
      })
    ).pipe(Layer.provide(AuditTrail.layer))

  static readonly layer = RunExecutor.layerWith({})
}

/** The run's `error` column: what went wrong, in words an operator can act on. */
const failureMessage = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  if (error instanceof ResourceNotFound) return `the ${error.resource} ${error.id} was not found`
  if (error instanceof RepositoryError) return `${error.operation} failed: ${error.message}`
  return error instanceof Error && error.message !== "" ? error.message : Cause.pretty(cause)
}
