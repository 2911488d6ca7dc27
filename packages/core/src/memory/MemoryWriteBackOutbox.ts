import { Effect, HashMap, Layer, Option } from "effect"
import type { WriteBackId } from "../kernel/Ids.ts"
import type { WriteBack } from "../writeback/WriteBack.ts"
import { WriteBackOutbox } from "../writeback/WriteBackOutbox.ts"
import { isClaimable, isHeldBy } from "./internal/MemoryLease.ts"
import { byCreatedAt, pageBy } from "./internal/MemoryPaging.ts"
import { changeRow, compareStrings, rowsWhere } from "./internal/MemoryRows.ts"
import { type Tables, type WriteBackRow, writeBacksTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

/** Pending and due, or in flight with a lease that ran out (its deliverer died). */
const isDue = (row: WriteBackRow, now: number): boolean =>
  (row.writeBack.status === "pending" && row.writeBack.nextAttemptAt <= now) ||
  (row.writeBack.status === "in_flight" && isClaimable(row.lease, now))

/** Longest-waiting first. */
const dueOrder = (a: WriteBackRow, b: WriteBackRow): number =>
  a.writeBack.nextAttemptAt - b.writeBack.nextAttemptAt ||
  a.writeBack.createdAt - b.writeBack.createdAt ||
  compareStrings(a.writeBack.id, b.writeBack.id)

/** Takes the rows for `owner`: in flight, one more attempt counted, leased until `leaseUntil`. */
const claimRows = (
  tables: Tables,
  rows: ReadonlyArray<WriteBackRow>,
  owner: string,
  leaseUntil: number
): readonly [Array<WriteBack>, Tables] => {
  const claimed = rows.map(
    (row): WriteBackRow => ({
      writeBack: { ...row.writeBack, status: "in_flight", attempts: row.writeBack.attempts + 1 },
      lease: { owner, until: leaseUntil }
    })
  )
  const writeBacks = claimed.reduce((all, row) => HashMap.set(all, row.writeBack.id, row), tables.writeBacks)
  return [claimed.map((row) => row.writeBack), { ...tables, writeBacks }]
}

export const layer: Layer.Layer<WriteBackOutbox, never, MemoryDatabase> = Layer.effect(
  WriteBackOutbox,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase

    /** Ends an attempt of `owner`'s; false when the row is not in flight under its lease. */
    const finish = (id: WriteBackId, owner: string, change: Partial<WriteBack>) =>
      changeRow(db, writeBacksTable, id, (row) =>
        row.writeBack.status === "in_flight" && isHeldBy(row.lease, owner)
          ? Option.some({ writeBack: { ...row.writeBack, ...change }, lease: null })
          : Option.none()
      )

    /** The undo row of `id` (undo rows are few: a scan). */
    const undoOf = (tables: Tables, id: WriteBackId) =>
      rowsWhere(tables.writeBacks, (row) => row.writeBack.undo?.of === id)[0]

    return WriteBackOutbox.of({
      // One row per recommendation's approval and one per undone write-back: the first wins, a repeat is a no-op.
      enqueue: (writeBack) =>
        db.update((tables) =>
          writeBack.undo !== undefined
            ? undoOf(tables, writeBack.undo.of) !== undefined || HashMap.has(tables.writeBacks, writeBack.id)
              ? tables
              : { ...tables, writeBacks: HashMap.set(tables.writeBacks, writeBack.id, { writeBack, lease: null }) }
            : HashMap.has(tables.writeBackByRecommendation, writeBack.recommendationId)
              ? tables
              : {
                  ...tables,
                  writeBacks: HashMap.set(tables.writeBacks, writeBack.id, { writeBack, lease: null }),
                  writeBackByRecommendation: HashMap.set(
                    tables.writeBackByRecommendation,
                    writeBack.recommendationId,
                    writeBack.id
                  )
                }
        ),
      getByRecommendation: (workspaceId, recommendationId) =>
        db.read((tables) =>
          HashMap.get(tables.writeBackByRecommendation, recommendationId).pipe(
            Option.flatMap((id) => HashMap.get(tables.writeBacks, id)),
            Option.map((row) => row.writeBack),
            Option.filter((writeBack) => writeBack.workspaceId === workspaceId)
          )
        ),
      getUndoOf: (workspaceId, id) =>
        db.read((tables) =>
          Option.filter(
            Option.fromUndefinedOr(undoOf(tables, id)?.writeBack),
            (writeBack) => writeBack.workspaceId === workspaceId
          )
        ),
      listApprovals: (workspaceId, page) =>
        db.read((tables) =>
          pageBy(
            rowsWhere(
              tables.writeBacks,
              ({ writeBack }) => writeBack.workspaceId === workspaceId && writeBack.undo === undefined
            ).map((row) => row.writeBack),
            byCreatedAt,
            page
          )
        ),
      claimDue: (owner, now, leaseUntil, limit) =>
        db.modify((tables) =>
          claimRows(
            tables,
            rowsWhere(tables.writeBacks, (row) => isDue(row, now))
              .sort(dueOrder)
              .slice(0, limit),
            owner,
            leaseUntil
          )
        ),
      claim: (id, owner, now, leaseUntil) =>
        db.modify((tables) => {
          const due = Option.filter(HashMap.get(tables.writeBacks, id), (row) => isDue(row, now))
          if (Option.isNone(due)) return [Option.none(), tables]
          const [claimed, next] = claimRows(tables, [due.value], owner, leaseUntil)
          return [Option.fromUndefinedOr(claimed[0]), next]
        }),
      markApplied: (id, owner, now) => finish(id, owner, { status: "applied", appliedAt: now }),
      scheduleRetry: (id, owner, nextAttemptAt, error) =>
        finish(id, owner, { status: "pending", nextAttemptAt, lastError: error }),
      markFailed: (id, owner, error) => finish(id, owner, { status: "failed", lastError: error }),
      cancelPending: (workspaceId, id, error) =>
        changeRow(db, writeBacksTable, id, (row) =>
          row.writeBack.status === "pending" && row.writeBack.workspaceId === workspaceId
            ? Option.some({ writeBack: { ...row.writeBack, status: "failed", lastError: error }, lease: null })
            : Option.none()
        ),
      depth: (now) =>
        db.read((tables) => {
          const waiting = rowsWhere(
            tables.writeBacks,
            ({ writeBack }) => writeBack.status === "pending" || writeBack.status === "in_flight"
          )
          const oldest = waiting.reduce<number | null>(
            (min, { writeBack }) => (min === null || writeBack.createdAt < min ? writeBack.createdAt : min),
            null
          )
          return { count: waiting.length, oldestAgeMs: oldest === null ? null : now - oldest }
        })
    })
  })
)
