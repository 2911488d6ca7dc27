import { type Cursor, isAfterCursor, newestFirst, type Page, type PageRequest, pageOf } from "../../kernel/Page.ts"

/**
 * One page of `rows`, newest first by `key` (ties broken by id), starting after the request's
 * cursor: the order and cursor format of Page.ts, which every adapter shares.
 */
export const pageBy = <A>(rows: Iterable<A>, key: (row: A) => Cursor, request: PageRequest): Page<A> => {
  const { cursor, limit } = request
  const keyed = Array.from(rows, (row) => ({ ...key(row), row }))
    .filter((entry) => cursor === null || isAfterCursor(entry, cursor))
    .sort(newestFirst)
  const page = pageOf(keyed.slice(0, limit + 1), limit)
  return { items: page.items.map((entry) => entry.row), nextCursor: page.nextCursor }
}

/** The paging key of entities that carry `createdAt` and `id`. */
export const byCreatedAt = (row: { readonly createdAt: number; readonly id: string }): Cursor => ({
  createdAt: row.createdAt,
  id: row.id
})
