import { Input } from "@margin/core/operations/OperationInput"
import type { VariantSchema } from "effect/schema"

/**
 * The query parameters of an operation's REST endpoint: the query variant of each query field of
 * its catalogue entry's input (numbers as decimal text). An endpoint takes its path parameters
 * (`entry.input.path`), its query (this) and its body (`entry.input.body`) from its entry; only
 * the parts an operation has are named, so that an endpoint without a path parameter or a query
 * asks the typed client for none. Its own file: the API definition (and so the browser client)
 * must not reach the request's caller, which brings the server's authentication along.
 */
export const restQuery = <const Query extends VariantSchema.Struct.Fields>(entry: {
  readonly input: { readonly query: VariantSchema.Struct<Query> }
}) => Input.extract(entry.input.query, "query")
