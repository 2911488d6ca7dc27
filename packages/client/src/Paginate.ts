import { Effect, Option, Stream } from "effect"

/** One page of a list: its items and the cursor of the next page, null on the last. */
export interface PageOf<A> {
  readonly data: ReadonlyArray<A>
  readonly next_cursor: string | null
}

/**
 * Every item of a list, page after page: each page's `next_cursor` asks for the next, until it is
 * null. Pages are fetched as the stream is read (nothing ahead), each with the client's retries.
 */
export const paginate = <A, E>(
  page: (cursor: string | undefined) => Effect.Effect<PageOf<A>, E>
): Stream.Stream<A, E> =>
  Stream.paginate<string | undefined, A, E>(undefined, (cursor) =>
    Effect.map(
      page(cursor),
      (answer) => [answer.data, answer.next_cursor === null ? Option.none() : Option.some(answer.next_cursor)] as const
    )
  )

/** `{ cursor }` to spread into a list's query, or nothing for the first page. */
export const cursorField = (cursor: string | undefined): { readonly cursor?: string } =>
  cursor === undefined ? {} : { cursor }
