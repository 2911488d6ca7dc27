import { Effect, HashMap, Layer, Option } from "effect"
import type { StoreSyncJob } from "../stores/StoreSyncJob.ts"
import { isActiveSyncJob } from "../stores/StoreSyncJob.ts"
import { StoreSyncJobRepository } from "../stores/StoreSyncJobRepository.ts"
import { isClaimable, isHeldBy } from "./internal/MemoryLease.ts"
import { compareStrings, rowsWhere } from "./internal/MemoryRows.ts"
import { type StoreSyncJobRow, storeSyncJobsTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

/** Oldest first by creation, then id; `latest` reads it backwards. */
const byCreated = (a: StoreSyncJob, b: StoreSyncJob): number =>
  a.createdAt !== b.createdAt ? a.createdAt - b.createdAt : compareStrings(a.id, b.id)

const isClaimableRow = (row: StoreSyncJobRow, now: number): boolean =>
  row.job.status === "queued" || (row.job.status === "running" && isClaimable(row.lease, now))

export const layer: Layer.Layer<StoreSyncJobRepository, never, MemoryDatabase> = Layer.effect(
  StoreSyncJobRepository,
  Effect.map(MemoryDatabase, (db) => {
    const jobsOf = (workspaceId: string, predicate: (job: StoreSyncJob) => boolean) =>
      db.read((tables) =>
        rowsWhere(storeSyncJobsTable.rows(tables), (row) => row.job.workspaceId === workspaceId && predicate(row.job))
          .map((row) => row.job)
          .sort(byCreated)
      )
    return StoreSyncJobRepository.of({
      insert: (job) =>
        db.modify((tables) => {
          const rows = storeSyncJobsTable.rows(tables)
          const taken =
            HashMap.has(rows, job.id) ||
            (job.slotAt !== null &&
              rowsWhere(rows, (row) => row.job.workspaceId === job.workspaceId && row.job.slotAt === job.slotAt)
                .length > 0)
          return taken
            ? [false, tables]
            : [true, storeSyncJobsTable.withRows(tables, HashMap.set(rows, job.id, { job, lease: null }))]
        }),
      get: (workspaceId, id) =>
        db.read((tables) =>
          HashMap.get(storeSyncJobsTable.rows(tables), id).pipe(
            Option.map((row) => row.job),
            Option.filter((job) => job.workspaceId === workspaceId)
          )
        ),
      latest: (workspaceId) =>
        Effect.map(
          jobsOf(workspaceId, () => true),
          (jobs) => Option.fromNullishOr(jobs.at(-1))
        ),
      active: (workspaceId) =>
        Effect.map(jobsOf(workspaceId, isActiveSyncJob), (jobs) => Option.fromNullishOr(jobs[0])),
      claim: (owner, now, leaseMs) =>
        db.modify((tables) => {
          const rows = storeSyncJobsTable.rows(tables)
          const next = rowsWhere(rows, (row) => isClaimableRow(row, now))
            .map((row) => row.job)
            .sort(byCreated)[0]
          if (next === undefined) return [Option.none(), tables]
          const job: StoreSyncJob = {
            ...next,
            status: "running",
            startedAt: next.startedAt ?? now,
            attempts: next.attempts + 1
          }
          const row: StoreSyncJobRow = { job, lease: { owner, until: now + leaseMs } }
          return [Option.some(job), storeSyncJobsTable.withRows(tables, HashMap.set(rows, job.id, row))]
        }),
      finish: (job, owner) =>
        db.modify((tables) => {
          const rows = storeSyncJobsTable.rows(tables)
          const current = HashMap.get(rows, job.id)
          if (
            Option.isNone(current) ||
            current.value.job.status !== "running" ||
            !isHeldBy(current.value.lease, owner)
          ) {
            return [false, tables]
          }
          return [true, storeSyncJobsTable.withRows(tables, HashMap.set(rows, job.id, { job, lease: null }))]
        })
    })
  })
)
