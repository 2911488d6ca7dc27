import { assert } from "@effect/vitest"
import { Effect, Result } from "effect"
import { type Cursor, decodeCursor, newestFirst, type Page, type PageRequest } from "../kernel/Page.ts"

/** The paging key of entities that carry `createdAt` and `id`. */
export const createdAtKey = (row: { readonly createdAt: number; readonly id: string }): Cursor => ({
  createdAt: row.createdAt,
  id: row.id
})

/**
 * Walks a list page by page with `limit` and checks the paging contract every list shares:
 * pages hold at most `limit` rows, the page with the last row has no cursor (so no empty page
 * follows a cursor), and together the pages are exactly `expected` newest first (ties by id
 * descending), every row once.
 */
export const assertPaging = Effect.fnUntraced(function* <A, E, R>(
  fetch: (request: PageRequest) => Effect.Effect<Page<A>, E, R>,
  key: (row: A) => Cursor,
  expected: ReadonlyArray<Cursor>,
  limit: number
) {
  const seen: Array<string> = []
  let cursor: Cursor | null = null
  for (let pages = 0; pages <= expected.length; pages++) {
    const page: Page<A> = yield* fetch({ limit, cursor })
    assert.isAtMost(page.items.length, limit, "a page holds at most `limit` rows")
    assert.isTrue(cursor === null || page.items.length > 0, "a cursor never leads to an empty page")
    seen.push(...page.items.map((row) => key(row).id))
    if (page.nextCursor === null) break
    const decoded = decodeCursor(page.nextCursor)
    assert.isTrue(Result.isSuccess(decoded), `the cursor ${page.nextCursor} decodes`)
    if (Result.isSuccess(decoded)) cursor = decoded.success
  }
  const order = [...expected].sort(newestFirst).map((row) => row.id)
  assert.deepStrictEqual(seen, order, "newest first, ties broken by id, every row exactly once")
})

/**
 * The paging contract of a list other tests share (every workspace, every user): walks it page by
 * page with `limit`, checks the laws of `assertPaging` that hold whatever else the list holds (at
 * most `limit` rows a page, no empty page after a cursor, no row twice, rows newest first), and
 * that the rows of `expected` are all there, in their newest-first order.
 */
export const assertPagingAmong = Effect.fnUntraced(function* <A, E, R>(
  fetch: (request: PageRequest) => Effect.Effect<Page<A>, E, R>,
  key: (row: A) => Cursor,
  expected: ReadonlyArray<Cursor>,
  limit: number
) {
  const seen: Array<Cursor> = []
  let cursor: Cursor | null = null
  for (;;) {
    const page: Page<A> = yield* fetch({ limit, cursor })
    assert.isAtMost(page.items.length, limit, "a page holds at most `limit` rows")
    assert.isTrue(cursor === null || page.items.length > 0, "a cursor never leads to an empty page")
    seen.push(...page.items.map(key))
    if (page.nextCursor === null) break
    const decoded = decodeCursor(page.nextCursor)
    assert.isTrue(Result.isSuccess(decoded), `the cursor ${page.nextCursor} decodes`)
    if (Result.isFailure(decoded)) break
    cursor = decoded.success
  }
  assert.strictEqual(new Set(seen.map((row) => row.id)).size, seen.length, "every row once")
  assert.deepStrictEqual(
    seen.map((row) => row.id),
    [...seen].sort(newestFirst).map((row) => row.id),
    "newest first, ties broken by id"
  )
  const wanted = new Set(expected.map((row) => row.id))
  assert.deepStrictEqual(
    seen.filter((row) => wanted.has(row.id)).map((row) => row.id),
    [...expected].sort(newestFirst).map((row) => row.id),
    "every expected row, in order"
  )
})
