import { Effect, HashMap, Option } from "effect"
import { RepositoryError } from "../../kernel/Errors.ts"
import type { MemoryDatabase } from "../MemoryDatabase.ts"
import type { Table } from "./MemoryTables.ts"

// Row operations the memory repositories share. Each one is atomic on its own (one `modify`).

/** Inserts a row whose key must be new, as a primary key would insist. */
export const insertNew = <Row>(
  db: MemoryDatabase["Service"],
  table: Table<Row>,
  key: string,
  row: Row,
  operation: string
): Effect.Effect<void, RepositoryError> =>
  Effect.flatMap(
    db.modify((tables) => {
      const rows = table.rows(tables)
      return HashMap.has(rows, key) ? [false, tables] : [true, table.withRows(tables, HashMap.set(rows, key, row))]
    }),
    (inserted) =>
      inserted
        ? Effect.void
        : Effect.fail(new RepositoryError({ operation, message: `duplicate key ${key} in ${table.name}` }))
  )

/** Reads one row by key. */
export const getRow = <Row>(
  db: MemoryDatabase["Service"],
  table: Table<Row>,
  key: string
): Effect.Effect<Option.Option<Row>> => db.read((tables) => HashMap.get(table.rows(tables), key))

/**
 * Rewrites one row when it exists and `change` accepts it (returns a new row rather than None).
 * Answers whether a row was written.
 */
export const changeRow = <Row>(
  db: MemoryDatabase["Service"],
  table: Table<Row>,
  key: string,
  change: (row: Row) => Option.Option<Row>
): Effect.Effect<boolean> =>
  db.modify((tables) => {
    const rows = table.rows(tables)
    const next = Option.flatMap(HashMap.get(rows, key), change)
    return Option.isSome(next) ? [true, table.withRows(tables, HashMap.set(rows, key, next.value))] : [false, tables]
  })

/** The rows of a table that satisfy `predicate`, in no particular order. */
export const rowsWhere = <Row>(rows: HashMap.HashMap<string, Row>, predicate: (row: Row) => boolean): Array<Row> =>
  Array.from(HashMap.values(rows)).filter(predicate)

/** Oldest first (then by id): the order claims and lookups by name use, so they are deterministic. */
export const oldestFirst = (
  a: { readonly createdAt: number; readonly id: string },
  b: { readonly createdAt: number; readonly id: string }
): number => (a.createdAt !== b.createdAt ? a.createdAt - b.createdAt : a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** Inserts or replaces the row under `key`. */
export const putRow = <Row>(
  db: MemoryDatabase["Service"],
  table: Table<Row>,
  key: string,
  row: Row
): Effect.Effect<void> => db.update((tables) => table.withRows(tables, HashMap.set(table.rows(tables), key, row)))

/** Code-unit order, the same in every locale (and as PostgreSQL's "C" collation). */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * Rewrites one row when `change` accepts it, answering the row as it was before (None when there
 * is no row): one atomic step, so of two racing callers only one sees the row unchanged.
 */
export const changeRowBefore = <Row>(
  db: MemoryDatabase["Service"],
  table: Table<Row>,
  key: string,
  change: (row: Row) => Option.Option<Row>
): Effect.Effect<Option.Option<Row>> =>
  db.modify((tables) => {
    const rows = table.rows(tables)
    const before = HashMap.get(rows, key)
    const next = Option.flatMap(before, change)
    return [before, Option.isSome(next) ? table.withRows(tables, HashMap.set(rows, key, next.value)) : tables]
  })

/** Deletes the rows that satisfy `predicate`, in one atomic step; answers how many went. */
export const deleteRowsWhere = <Row>(
  db: MemoryDatabase["Service"],
  table: Table<Row>,
  predicate: (row: Row) => boolean
): Effect.Effect<number> =>
  db.modify((tables) => {
    const rows = table.rows(tables)
    const kept = HashMap.filter(rows, (row) => !predicate(row))
    return [HashMap.size(rows) - HashMap.size(kept), table.withRows(tables, kept)]
  })
