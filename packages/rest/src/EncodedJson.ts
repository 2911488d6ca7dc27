import type { Schema } from "effect"
import { HttpServerResponse } from "effect/http"

/**
 * A success body already in its wire form (the edge's `*Json` builders), answered as JSON without
 * the endpoint's encoding pass. The compiler checks the body against the schema's encoded type, so
 * only schemas without transformations belong here (strings, numbers, literals, nulls), where that
 * pass only walks the value again: for a list of 50 recommendations it was about a fifth of the
 * server's CPU per request (bench:http). The declared success schema still documents the endpoint.
 */
export const encodedJson =
  <S extends Schema.Top>(_schema: S) =>
  (body: S["Encoded"]): HttpServerResponse.HttpServerResponse =>
    HttpServerResponse.jsonUnsafe(body)
