import { Effect, Result, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { VariantSchema } from "effect/schema"
import type { Actor } from "../access/Actor.ts"
import type { Role } from "../access/Role.ts"
import type { UserId, WorkspaceId } from "../kernel/Ids.ts"
import {
  type Cursor,
  decodeCursor,
  defaultPageLimit,
  encodeCursor,
  maxPageLimit,
  type PageRequest
} from "../kernel/Page.ts"
import type { RunTrigger } from "../runs/Run.ts"

/**
 * An operation's input, declared once in its catalogue entry and decoded alike by every door: the
 * path parameters, the query parameters and the body, each field with its description. A door
 * takes each part where its protocol carries it (REST: the path, the query string, the JSON body;
 * MCP: one arguments object) and hands the use case one object of all three.
 *
 * Most fields look the same everywhere. A number does not: a query string carries it as text,
 * an MCP argument as a JSON number. Such a field is an `Input.Field` with a `json` and a `query`
 * variant (Effect's VariantSchema, the mechanism of `Model.Class`), one declaration with two
 * encodings of the same value.
 */
export const Input = VariantSchema.make({ variants: ["json", "query"], defaultVariant: "json" })

/**
 * Text that may reach a query holds no NUL: PostgreSQL text cannot, and the database would refuse
 * the query (a 503) where the caller is owed a validation error.
 */
export const nulMessage = "must not contain the NUL character"

export const isWithoutNul = Schema.isPattern(/^[^\0]*$/, { message: nulMessage })

const pageSizeDescription = `page size, 1 to ${maxPageLimit}, default ${defaultPageLimit}`

const PageSize = Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: maxPageLimit })))

/** `limit` as a JSON number (an MCP argument). */
export const PageLimit = PageSize.annotate({ description: pageSizeDescription })

/**
 * `?limit=` in decimal digits only: a number parser would also read `0x10`, `1e1`, ` 10` or
 * `10.0`, none of which a client means as a page size.
 */
export const PageLimitText = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[0-9]{1,4}$/, { message: "Expected a whole number in decimal digits" })),
  Schema.decodeTo(PageSize, SchemaTransformation.numberFromString)
).annotate({ description: pageSizeDescription })

const CursorValue = Schema.Struct({ createdAt: Schema.Number, id: Schema.String })

const cursorDescription = "the next_cursor of the previous page"

/**
 * The `next_cursor` of the previous page, and nothing else. Described on both sides: JSON Schema
 * (an MCP tool's arguments) shows the text a caller sends.
 */
export const PageCursor = Schema.String.annotate({ description: cursorDescription })
  .pipe(
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
  )
  .annotate({ description: cursorDescription })

/** The paging fields of every list operation. */
export const pageInput = {
  limit: Input.Field({ json: Schema.optionalKey(PageLimit), query: Schema.optionalKey(PageLimitText) }),
  cursor: Schema.optionalKey(PageCursor)
}

export const pageRequestOf = (input: { readonly limit?: number; readonly cursor?: Cursor }): PageRequest => ({
  limit: input.limit ?? defaultPageLimit,
  cursor: input.cursor ?? null
})

/** The fields of an input part. */
export type InputFields = Schema.Struct.Fields

/** An operation's input as declared: path and body fields look alike at every door, query fields may vary. */
export interface OperationInput<
  Path extends InputFields,
  Query extends VariantSchema.Struct.Fields,
  Body extends InputFields,
  Headers extends InputFields
> {
  readonly path: Path
  readonly query: VariantSchema.Struct<Query>
  /** A JSON object (REST's request body; MCP arguments beside the others); `noBody`: none. */
  readonly body: Schema.Struct<Body>
  /** REST only: no body at all, or null, means `{}` (a body whose every field is optional). */
  readonly bodyMayBeAbsent?: boolean
  /**
   * Fields REST carries as request headers, named as MCP arguments are: `idempotency_key` is the
   * `Idempotency-Key` header (underscores become hyphens), an argument beside the others over MCP;
   * `noHeaders`: none.
   */
  readonly headers: Schema.Struct<Headers>
}

/** The headers of an operation that reads none (REST declares none for it). */
export const noHeaders = Schema.Struct({})

/** The input a use case receives: every part's fields, decoded, in one object. */
export type InputOf<
  Path extends InputFields,
  Query extends VariantSchema.Struct.Fields,
  Body extends InputFields,
  Headers extends InputFields
> = Schema.Struct<Path>["Type"] &
  VariantSchema.Extract<"json", VariantSchema.Struct<Query>>["Type"] &
  Schema.Struct<Body>["Type"] &
  Schema.Struct<Headers>["Type"]

/** The door an operation was called through, as a run records it. */
export type Door = Extract<RunTrigger, "api" | "mcp">

/** Who calls an operation, as the use case needs them (the door resolves it from the credential). */
export interface OperationCaller {
  readonly workspaceId: WorkspaceId
  /** The token's issuer, the session's user, or the user who consented to an OAuth grant. */
  readonly userId: UserId
  readonly actor: Actor
  /** The user's role in the workspace; null when the token's issuer is no longer a member. */
  readonly role: Role | null
  readonly door: Door
}

/**
 * An operation bound to its use case: the services are taken once, when a door is built, and the
 * function runs once per call, `(input, caller) => effect`.
 */
export type OperationBinding<I, A, E, R> = Effect.Effect<
  (input: I, caller: OperationCaller) => Effect.Effect<A, E>,
  never,
  R
>

/**
 * The body of an operation that takes none (a Struct rather than null, so that the binding's input
 * type can be inferred from every part): REST declares no payload for it.
 */
export const noBody = Schema.Struct({})

/**
 * One schema of all an operation's input fields: the path parameters, each query field in the
 * `variant` form (`json`: numbers as JSON numbers, as MCP arguments carry them; `query`: text, as a
 * query string or an HTML form carries them), the body's fields and those REST reads from headers,
 * under their argument names.
 */
export const inputSchemaOf = <
  const Path extends InputFields,
  const Query extends VariantSchema.Struct.Fields,
  const Body extends InputFields,
  const Headers extends InputFields,
  const Variant extends "json" | "query"
>(
  entry: { readonly input: OperationInput<Path, Query, Body, Headers> },
  variant: Variant
) =>
  Schema.Struct({
    ...entry.input.path,
    ...Input.extract(entry.input.query, variant).fields,
    ...entry.input.body.fields,
    ...entry.input.headers.fields
  })

/** An input with no field: the operation takes nothing but its caller. */
export const noInput = { path: {}, query: Input.Struct({}), body: noBody, headers: noHeaders }
