import { HashMap, Option } from "effect"
import type { Outcome } from "../../kernel/Outcome.ts"
import type { MemoryDatabase } from "../MemoryDatabase.ts"
import type { Table } from "./MemoryTables.ts"

/** What `update(id, decide)` needs of an entity: its keys, and the version the save bumps. */
export interface Versioned {
  readonly id: string
  readonly workspaceId: string
  readonly version: number
}

/** How to find the entity inside a table's row (the row may carry more, like a lease). */
export interface EntityInRow<Row, A> {
  readonly get: (row: Row) => A
  readonly set: (row: Row, entity: A) => Row
}

export const wholeRow = <A>(): EntityInRow<A, A> => ({ get: (row) => row, set: (_, entity) => entity })

/**
 * Load -> decide -> save in one atomic step. Only a transition is saved, with `version` bumped and
 * the keys kept; a repeat or a conflict saves nothing. None when the workspace has no such entity.
 */
export const decideAndSave = <Row, A extends Versioned>(
  db: MemoryDatabase["Service"],
  table: Table<Row>,
  entity: EntityInRow<Row, A>,
  workspaceId: string,
  id: string,
  decide: (current: A) => Outcome<A>
) =>
  db.modify((tables): readonly [Option.Option<Outcome<A>>, typeof tables] => {
    const rows = table.rows(tables)
    const row = Option.filter(HashMap.get(rows, id), (found) => entity.get(found).workspaceId === workspaceId)
    if (Option.isNone(row)) return [Option.none(), tables]
    const current = entity.get(row.value)
    const outcome = decide(current)
    if (outcome._tag !== "Transitioned") return [Option.some(outcome), tables]
    const after: A = {
      ...outcome.after,
      id: current.id,
      workspaceId: current.workspaceId,
      version: current.version + 1
    }
    const saved = table.withRows(tables, HashMap.set(rows, id, entity.set(row.value, after)))
    return [Option.some({ _tag: "Transitioned", before: current, after }), saved]
  })
