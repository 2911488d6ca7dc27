import type { Cursor, Page } from "@margin/core/kernel/Page"
import { Console, Effect, Schema } from "effect"
import { Flag, type GlobalFlag } from "effect/cli"
import { idOf } from "./Flags.ts"
import { type Json, JsonOutput } from "./Output.ts"
import { table } from "./Table.ts"

/** Rows a list prints at most, unless --limit says otherwise. */
export const defaultListLimit = 50
export const maxListLimit = 1000

/** `--limit N`: how many rows a list prints at most. */
export const limitFlag = Flag.Int("limit").pipe(
  Flag.withDescription(`At most this many rows (1 to ${maxListLimit}, default ${defaultListLimit})`),
  Flag.withSchema(
    Schema.Int.pipe(
      Schema.check(
        Schema.isBetween({ minimum: 1, maximum: maxListLimit }, { message: `--limit must be 1 to ${maxListLimit}` })
      )
    )
  ),
  Flag.withDefault(defaultListLimit)
)

/** `--after ID`: the page after the row of that id, the last one the previous page printed. */
export const afterFlag = (prefix: string, what: string) =>
  Flag.String("after").pipe(
    Flag.withDescription(`Only the ${what}s after this one (${prefix}_…), the last of the previous page`),
    Flag.withSchema(idOf(prefix)),
    Flag.optional
  )

/** The paging position just after `row` in a newest-first list. */
export const cursorAt = (row: { readonly createdAt: number; readonly id: string }): Cursor => ({
  createdAt: row.createdAt,
  id: row.id
})

/** One page of a list as printed: its rows, and what to pass to --after for the next page (null on the last). */
export interface Listing<Row> {
  readonly rows: ReadonlyArray<Row>
  readonly after: string | null
}

/** A port's page as a listing: the next page starts after its last row, named by `idOfItem`. */
export const listingOf = <A, Row>(
  page: Page<A>,
  row: (item: A) => Row,
  idOfItem: (item: A) => string
): Listing<Row> => {
  const last = page.items[page.items.length - 1]
  return { rows: page.items.map(row), after: page.nextCursor === null || last === undefined ? null : idOfItem(last) }
}

/** A column of a list's table: its header and the cell of a row (null shows as `-`). */
export type Column<Row> = readonly [header: string, cell: (row: Row) => string | number | boolean | null]

/**
 * A list as --json prints it: the page's rows, and where the next page starts (the REST API's
 * `{ data, next_cursor }`, with the id `--after` takes). `has_more` says it without a null check.
 */
export const listJson = <Row>(listing: Listing<Row>) => ({
  data: listing.rows,
  next_after: listing.after,
  has_more: listing.after !== null
})

/**
 * Prints a list: with --json one JSON object (`listJson`), otherwise a table, `empty` when there
 * are no rows, and how to ask for the next page when there is one.
 */
export const reportListing = <Row extends { readonly [key: string]: Json }>(
  listing: Listing<Row>,
  columns: ReadonlyArray<Column<Row>>,
  empty: string
): Effect.Effect<void, never, GlobalFlag.Setting.Identifier<"json">> =>
  Effect.flatMap(JsonOutput, (json) => {
    if (json) return Console.log(JSON.stringify(listJson(listing)))
    if (listing.rows.length === 0) return Console.log(empty)
    const cells = listing.rows.map((row) => columns.map(([, cell]) => String(cell(row) ?? "-")))
    const more = listing.after === null ? [] : [`More: run it again with --after ${listing.after}`]
    return Console.log(
      [
        table(
          columns.map(([header]) => header),
          cells
        ),
        ...more
      ].join("\n")
    )
  })
