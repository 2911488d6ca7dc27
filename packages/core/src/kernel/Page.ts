import { Result } from "effect"

/** Lists are newest first and paged by an opaque cursor over (createdAt, id). */
export interface PageRequest {
  readonly limit: number
  readonly cursor: Cursor | null
}

export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly nextCursor: string | null
}

export const defaultPageLimit = 50
export const maxPageLimit = 200

/** A position in a newest-first list: the last row the previous page returned. */
export interface Cursor {
  readonly createdAt: number
  readonly id: string
}

/** URL-safe without escaping: ids are `[a-z0-9_]`, the instant is base 36. */
export const encodeCursor = (cursor: Cursor): string => `${cursor.createdAt.toString(36)}.${cursor.id}`

/** What a cursor this service hands out looks like (the OpenAPI document states it). */
export const cursorPattern = /^([0-9a-z]{1,12})\.([a-z]{2,4}_[0-9A-Za-z_-]{1,64})$/

/**
 * The last instant a JavaScript Date holds (+275760-09-13), in epoch milliseconds. No row is newer,
 * and PostgreSQL's timestamptz holds it too: a cursor past it names no position in any list, and
 * would make the database refuse the query (a 503 where the client is owed a 422).
 */
export const latestInstant = 8_640_000_000_000_000

export const decodeCursor = (text: string): Result.Result<Cursor, string> => {
  const match = cursorPattern.exec(text)
  const createdAt = match?.[1] === undefined ? Number.NaN : Number.parseInt(match[1], 36)
  const id = match?.[2]
  return id === undefined || !Number.isSafeInteger(createdAt) || createdAt > latestInstant
    ? Result.fail("the cursor is not one this service returned")
    : Result.succeed({ createdAt, id })
}

/** Builds a page from `limit + 1` rows fetched newest first. */
export const pageOf = <A extends { readonly createdAt: number; readonly id: string }>(
  rows: ReadonlyArray<A>,
  limit: number
): Page<A> => {
  if (rows.length <= limit) return { items: rows, nextCursor: null }
  const items = rows.slice(0, limit)
  const last = items[items.length - 1]
  return { items, nextCursor: last === undefined ? null : encodeCursor({ createdAt: last.createdAt, id: last.id }) }
}

/** Newest first, ties broken by id descending: the one order every adapter uses. */
export const newestFirst = (
  a: { readonly createdAt: number; readonly id: string },
  b: { readonly createdAt: number; readonly id: string }
): number => (a.createdAt !== b.createdAt ? b.createdAt - a.createdAt : a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

/** True when `row` comes after `cursor` in newest-first order. */
export const isAfterCursor = (row: { readonly createdAt: number; readonly id: string }, cursor: Cursor): boolean =>
  row.createdAt < cursor.createdAt || (row.createdAt === cursor.createdAt && row.id < cursor.id)
