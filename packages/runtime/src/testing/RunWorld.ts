import { assert } from "@effect/vitest"
import { Alerts } from "@margin/core/alerts/Alerts"
import { AuditRepository } from "@margin/core/audit/AuditRepository"
import type { CatalogItem, CatalogItemInput } from "@margin/core/catalog/CatalogItem"
import { CatalogRepository } from "@margin/core/catalog/CatalogRepository"
import type { Tag } from "@margin/core/catalog/Tag"
import type { RunId, WorkspaceId } from "@margin/core/kernel/Ids"
import { type Cursor, decodeCursor, type Page } from "@margin/core/kernel/Page"
import type { PricingPolicy } from "@margin/core/pricing/PricingPolicy"
import { Recommendations } from "@margin/core/recommendations/Recommendations"
import type { Run } from "@margin/core/runs/Run"
import { RunExecutor } from "@margin/core/runs/RunExecutor"
import { RunRepository } from "@margin/core/runs/RunRepository"
import { Runs } from "@margin/core/runs/Runs"
import { aCatalogItemInput } from "@margin/core/testing/Fixtures"
import { seedWorkspace } from "@margin/core/testing/Seed"
import { defaultRunWorkerOptions, RunWorker } from "@margin/jobs"
import { Clock, Duration, Effect, Layer, Logger, Option, Result, Schedule, Stream } from "effect"
import { SqlClient } from "effect/sql"
import * as ScratchDatabase from "./ScratchDatabase.ts"

/**
 * What the run tests on PostgreSQL share: a fresh database (ScratchDatabase), the run use cases on
 * it, an in-process run worker that claims and executes queued runs as a worker process would, and
 * seeds and reads through the ports. Every workspace is fresh, so tests of a file share the database.
 */

const system = { _tag: "SystemActor", name: "run tests" } as const

/** Chunks of 7 items: every test catalog spans several chunks, so their seams are crossed. */
export const testChunkSize = 7

/** The database, the use cases, and a run worker polling every 20 ms with a short lease. */
export const layer = RunWorker.layerWith({
  ...defaultRunWorkerOptions,
  concurrency: 2,
  lease: Duration.seconds(5),
  heartbeat: Duration.millis(200),
  pollInterval: Duration.millis(20)
}).pipe(
  Layer.provideMerge(Layer.mergeAll(Runs.layer, RunExecutor.layerWith({ chunkSize: testChunkSize }))),
  Layer.provideMerge(ScratchDatabase.layer),
  Layer.provide(Logger.layer([]))
)

/** A fresh workspace on the enterprise plan (no caps) with `policy`. */
export const aWorkspace = (policy?: PricingPolicy) =>
  Effect.map(
    seedWorkspace({ plan: "enterprise", ...(policy === undefined ? {} : { pricingPolicy: policy }) }),
    (w) => w.id
  )

/** Imports items as `marginctl catalog import` does: upsert by sku, in one batch. */
export const importItems = (workspaceId: WorkspaceId, items: ReadonlyArray<Partial<CatalogItemInput>>) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    CatalogRepository.use((catalog) =>
      catalog.upsertMany(
        workspaceId,
        items.map((item) => aCatalogItemInput(item)),
        now
      )
    )
  )

/** `items` catalog items with recommendations, losses and missing costs throughout. */
export const aMixedCatalog = (items: number) =>
  Array.from({ length: items }, (_, n) => ({
    sku: `K-${String(n).padStart(6, "0")}`,
    price: 1000 + (n % 50) * 10,
    cost: n % 10 === 0 ? null : 500 + (n % 13) * 60
  }))

/** Every item of the workspace, by sku. */
export const itemsBySku = (workspaceId: WorkspaceId) =>
  CatalogRepository.use((catalog) => Stream.runCollect(catalog.streamForRun(workspaceId, [], 500))).pipe(
    Effect.map((chunks) => new Map<string, CatalogItem>(chunks.flat().map((item) => [item.sku, item])))
  )

/** Waits until the run has ended (a worker executes it); a run still going after `within` is a defect. */
export const finished = (workspaceId: WorkspaceId, id: RunId, within: Duration.Input = Duration.seconds(60)) =>
  RunRepository.use((runs) => runs.get(workspaceId, id)).pipe(
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.die(`no run ${id}`),
        onSome: (run) =>
          run.status === "queued" || run.status === "running" ? Effect.fail("not yet" as const) : Effect.succeed(run)
      })
    ),
    Effect.retry(Schedule.spaced(Duration.millis(50))),
    Effect.timeoutOrElse({ duration: within, orElse: () => Effect.die(`the run ${id} did not end in time`) }),
    Effect.orDie
  )

/** Queues a run as the REST API does, and answers it once the worker has finished it. */
export const runToEnd = (workspaceId: WorkspaceId, tags: ReadonlyArray<Tag> = []) =>
  Effect.gen(function* () {
    const queued = yield* Runs.use((runs) => runs.trigger(workspaceId, tags, "api", system))
    yield* RunWorker.use((worker) => worker.wake)
    return yield* finished(workspaceId, queued.id)
  })

const everything = { limit: 200, cursor: null }

/** Every page of a list, newest first. */
const drain = <A, E, R>(page: (cursor: Cursor | null) => Effect.Effect<Page<A>, E, R>) =>
  Effect.gen(function* () {
    const all: Array<A> = []
    let cursor: Cursor | null = null
    for (;;) {
      const next: Page<A> = yield* page(cursor)
      all.push(...next.items)
      if (next.nextCursor === null) return all
      const decoded = decodeCursor(next.nextCursor)
      if (Result.isFailure(decoded)) return yield* Effect.die(decoded.failure)
      cursor = decoded.success
    }
  })

/** The recommendations a run made, or every one of the workspace (any run). */
export const recommendationsOf = (workspaceId: WorkspaceId, run: Run | null = null) =>
  drain((cursor) =>
    Recommendations.use((service) =>
      service.list(workspaceId, { status: null, runId: run === null ? null : run.id }, { ...everything, cursor })
    )
  )

/** The workspace's alerts with `status` (effective status; null = all). */
export const alertsOf = (workspaceId: WorkspaceId, status: "open" | "resolved" | null = "open") =>
  drain((cursor) =>
    Alerts.use((alerts) => alerts.list(workspaceId, { status, kind: null, itemId: null }, { ...everything, cursor }))
  )

/**
 * Asserts that the run, finished, was executed once in the database's eyes, however many workers
 * claimed it: one start and one success in the audit trail, at most one recommendation per item,
 * at most one alert per item and kind in its workspace, and counts matching the run's own.
 */
export const assertExecutedOnce = (run: Run) =>
  Effect.gen(function* () {
    const audit = yield* AuditRepository.use((trail) => trail.list(run.workspaceId, { limit: 200, cursor: null }))
    const actions = audit.items.filter((event) => event.resourceId === run.id).map((event) => event.action)
    assert.deepStrictEqual(actions.toSorted(), ["run.start", "run.succeed", "run.trigger"], run.id)
    const sql = yield* SqlClient.SqlClient
    const [recommendations] = yield* sql<{ readonly total: number; readonly items: number }>`
      SELECT count(*)::int AS total, count(DISTINCT item_id)::int AS items
      FROM recommendations WHERE workspace_id = ${run.workspaceId} AND run_id = ${run.id}`
    assert.deepStrictEqual(recommendations, { total: run.recommendationsCount, items: run.recommendationsCount })
    const [alerts] = yield* sql<{ readonly total: number; readonly subjects: number }>`
      SELECT count(*)::int AS total, count(DISTINCT (item_id, kind))::int AS subjects
      FROM alerts WHERE workspace_id = ${run.workspaceId}`
    assert.deepStrictEqual(alerts, { total: run.alertsCount, subjects: run.alertsCount })
  })
