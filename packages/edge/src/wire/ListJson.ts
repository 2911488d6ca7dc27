import {
  type Cursor,
  decodeCursor,
  defaultPageLimit,
  encodeCursor,
  maxPageLimit,
  type Page,
  type PageRequest
} from "@margin/core/Page"
import { Effect, Result, Schema, SchemaIssue, SchemaTransformation } from "effect"

/** Every list answers `{ data: [...], next_cursor }`, newest first; next_cursor is null on the last page. */
export const ListJson = <S extends Schema.Top>(item: S, identifier: string) =>
  Schema.Struct({
    data: Schema.Array(item),
    next_cursor: Schema.NullOr(Schema.String)
  }).annotate({ identifier })

export const listJson = <A, B>(
  page: Page<A>,
  toJson: (a: A) => B
): { readonly data: ReadonlyArray<B>; readonly next_cursor: string | null } => ({
  data: page.items.map(toJson),
  next_cursor: page.nextCursor
})

/**
 * `?limit=`: 1..200, default 50, in decimal digits only: a number parser would also read `0x10`,
 * `1e1`, ` 10` or `10.0`, none of which a client means as a page size.
 */
export const LimitParam = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[0-9]{1,4}$/, { message: "Expected a whole number in decimal digits" })),
  Schema.decodeTo(
    Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: maxPageLimit }))),
    SchemaTransformation.numberFromString
  )
).annotate({ description: `page size, 1 to ${maxPageLimit}, default ${defaultPageLimit}` })

const CursorValue = Schema.Struct({ createdAt: Schema.Number, id: Schema.String })

/** `?cursor=`: the `next_cursor` of the previous page, and nothing else. */
export const CursorParam = Schema.String.pipe(
  Schema.decodeTo(
    CursorValue,
    SchemaTransformation.transformEffect({
      decode: (text: string) =>
        Result.match(decodeCursor(text), {
          onFailure: (message) => Effect.fail(new SchemaIssue.InvalidValue({ message }, text)),
          onSuccess: (cursor: Cursor) => Effect.succeed(cursor)
        }),
      encode: (cursor: Cursor) => Effect.succeed(encodeCursor(cursor))
    })
  )
).annotate({ description: "the next_cursor of the previous page" })

/** The paging query fields every list endpoint accepts. */
export const pageQueryFields = {
  limit: Schema.optionalKey(LimitParam),
  cursor: Schema.optionalKey(CursorParam)
}

export const pageRequest = (query: { readonly limit?: number; readonly cursor?: Cursor }): PageRequest => ({
  limit: query.limit ?? defaultPageLimit,
  cursor: query.cursor ?? null
})
