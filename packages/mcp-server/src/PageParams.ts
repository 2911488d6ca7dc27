import { defaultPageLimit, maxPageLimit } from "@margin/core/Page"
import { CursorParam } from "@margin/edge/wire"
import { Schema } from "effect"

/**
 * The paging arguments every list tool takes: the REST query parameters `limit` and `cursor`,
 * with `limit` as a JSON integer rather than a query string.
 */
export const pageParams = {
  limit: Schema.optionalKey(
    Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: maxPageLimit }))).annotate({
      description: `page size, 1 to ${maxPageLimit}, default ${defaultPageLimit}`
    })
  ),
  cursor: Schema.optionalKey(CursorParam)
}
