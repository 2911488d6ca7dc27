import { Effect, HashMap, Layer, Option } from "effect"
import type { Run } from "../runs/Run.ts"
import { RunRepository } from "../runs/RunRepository.ts"
import { decideAndSave, type EntityInRow } from "./internal/MemoryDecide.ts"
import { isClaimable, isHeldBy } from "./internal/MemoryLease.ts"
import { byCreatedAt, pageBy } from "./internal/MemoryPaging.ts"
import { changeRow, insertNew, oldestFirst, rowsWhere } from "./internal/MemoryRows.ts"
import { type RunRow, runsTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

const runInRow: EntityInRow<RunRow, Run> = { get: (row) => row.run, set: (row, run) => ({ ...row, run }) }

const isUnfinished = (row: RunRow): boolean => row.run.status === "queued" || row.run.status === "running"

/** Queued runs wait for a worker; a running one whose lease ran out lost its worker. */
const isWaiting = (row: RunRow, now: number): boolean => isUnfinished(row) && isClaimable(row.lease, now)

/** A claimed run holds its workspace until it finishes, even past its lease (PgRunRepository's rule). */
const isHeld = (row: RunRow): boolean => isUnfinished(row) && row.lease !== null

export const layer: Layer.Layer<RunRepository, never, MemoryDatabase> = Layer.effect(
  RunRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    return RunRepository.of({
      insert: (run) => insertNew(db, runsTable, run.id, { run, lease: null }, "RunRepository.insert"),
      get: (workspaceId, id) =>
        db.read((tables) =>
          HashMap.get(tables.runs, id).pipe(
            Option.map((row) => row.run),
            Option.filter((run) => run.workspaceId === workspaceId)
          )
        ),
      find: (id) => db.read((tables) => Option.map(HashMap.get(tables.runs, id), (row) => row.run)),
      list: (workspaceId, filter, page) =>
        db.read((tables) =>
          pageBy(
            rowsWhere(
              tables.runs,
              ({ run }) => run.workspaceId === workspaceId && (filter.status === null || run.status === filter.status)
            ).map((row) => row.run),
            byCreatedAt,
            page
          )
        ),
      update: (workspaceId, id, decide) => decideAndSave(db, runsTable, runInRow, workspaceId, id, decide),
      // Progress is bookkeeping, not a transition: it does not bump the version.
      recordProgress: (workspaceId, id, progress) =>
        Effect.asVoid(
          changeRow(db, runsTable, id, (row) =>
            row.run.workspaceId === workspaceId && row.run.status === "running"
              ? Option.some({ ...row, run: { ...row.run, ...progress } })
              : Option.none()
          )
        ),
      countCreatedSince: (workspaceId, since) =>
        db.read(
          (tables) =>
            rowsWhere(tables.runs, ({ run }) => run.workspaceId === workspaceId && run.createdAt >= since).length
        ),
      claimNext: (owner, now, leaseUntil) =>
        db.modify((tables) => {
          const held = rowsWhere(tables.runs, isHeld)
          const isFree = (row: RunRow) =>
            held.every((other) => other.run.workspaceId !== row.run.workspaceId || other.run.id === row.run.id)
          const next = rowsWhere(tables.runs, (row) => isWaiting(row, now) && isFree(row))
            .map((row) => row.run)
            .sort(oldestFirst)[0]
          if (next === undefined) return [Option.none(), tables]
          const runs = HashMap.set(tables.runs, next.id, { run: next, lease: { owner, until: leaseUntil } })
          return [Option.some(next), { ...tables, runs }]
        }),
      heartbeat: (id, owner, leaseUntil) =>
        changeRow(db, runsTable, id, (row) =>
          isHeldBy(row.lease, owner) ? Option.some({ ...row, lease: { owner, until: leaseUntil } }) : Option.none()
        )
    })
  })
)
