import type { RepositoryError } from "@margin/core/kernel/Errors"
import { type Cursor, type Page, pageOf } from "@margin/core/kernel/Page"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { Fragment } from "effect/sql/Statement"
import { asRepositoryWith, type PgFailure } from "./PgRepositoryError.ts"

/**
 * Keyset paging, newest first on (`column` DESC, id DESC), with the cursor of core Page.ts.
 * The condition is one row comparison, so an index on (workspace_id, `column` DESC, id DESC)
 * seeks straight to the page instead of counting an OFFSET.
 */
export const afterCursor = (
  sql: SqlClient,
  cursor: Cursor | null,
  column: "created_at" | "at" = "created_at"
): Fragment =>
  cursor === null ? sql.literal("TRUE") : sql`(${sql(column)}, id) < (${new Date(cursor.createdAt)}, ${cursor.id})`

/** A page from `limit + 1` rows fetched newest first, for rows whose paging key is not `createdAt`. */
export const pageBy = <A>(rows: ReadonlyArray<A>, key: (row: A) => Cursor, limit: number): Page<A> => {
  const page = pageOf(
    rows.map((row) => ({ ...key(row), row })),
    limit
  )
  return { items: page.items.map((entry) => entry.row), nextCursor: page.nextCursor }
}

/**
 * A list method's statement (`limit + 1` rows, newest first) as one page: the rows decoded by
 * `decode`, cut to `limit` with the next cursor, failures named `operation`; in one continuation
 * (`asRepositoryWith`).
 */
export const asPage = <Rows, A extends { readonly createdAt: number; readonly id: string }>(
  operation: string,
  decode: (rows: Rows) => Effect.Effect<ReadonlyArray<A>, PgFailure | RepositoryError>,
  limit: number
) => asRepositoryWith(operation, (rows: Rows) => Effect.map(decode(rows), (items) => pageOf(items, limit)))
