import type { Page } from "@margin/core/kernel/Page"
import { Schema } from "effect"

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

/** `?cursor=`: the `next_cursor` of the previous page (declared once with the operations' input; the client reads it). */
export { PageCursor as CursorParam } from "@margin/core/operations/OperationInput"
