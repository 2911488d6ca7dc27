import { type GuardedOperation, isIdempotent, isMutation, type McpTool } from "@margin/core/operations/Operation"
import {
  type InputFields,
  inputSchemaOf,
  type OperationCaller,
  type OperationInput
} from "@margin/core/operations/OperationInput"
import {
  Authenticate,
  Caller,
  operationCaller,
  RouteAccess,
  type RouteAccessShape,
  routeAccess
} from "@margin/edge/auth"
import { CurrentRequestId } from "@margin/edge/telemetry"
import { type ApiFailure, ErrorEnvelope, envelopeOf, logIfUnavailable, ValidationFailed } from "@margin/edge/wire"
import { Context, Effect, type Schema } from "effect"
import { Tool } from "effect/ai"
import type { VariantSchema } from "effect/schema"
import { unstorableArgumentIssues } from "./UnstorableArguments.ts"

/** An operation of the catalogue that MCP offers, with the access every tool asks for. */
export type McpOperation = GuardedOperation & { readonly mcp: McpTool }

/** What a tool does to the world, told to clients as the MCP annotations of the same names. */
export interface ToolHints {
  readonly readOnly: boolean
  /** It may change or end something for good (a terminal status, a live store price). */
  readonly destructive: boolean
  /** Calling it again with the same arguments changes nothing more. */
  readonly idempotent: boolean
  /** It reaches outside this service (the merchant's store). */
  readonly openWorld: boolean
}

/** The hints of an operation's tool, from its catalogue entry (readOnly and idempotent from its repeat shape). */
const hintsOf = (entry: McpOperation): ToolHints => ({
  readOnly: !isMutation(entry),
  destructive: entry.mcp.destructive,
  idempotent: isIdempotent(entry),
  openWorld: entry.mcp.openWorld
})

/**
 * The tool of an operation of the catalogue: its name, title (the operation's summary),
 * description, access and hints are the catalogue's; its parameters and success schema are the
 * tool's. Failures are answered as the REST error envelope. The tool carries its `RouteAccess`,
 * the annotation REST endpoints carry too.
 */
export const marginTool = <const Name extends string, P extends Schema.Top, S extends Schema.Top>(
  entry: McpOperation & { readonly mcp: { readonly name: Name } },
  options: { readonly parameters: P; readonly success: S }
) => {
  const hints = hintsOf(entry)
  return Tool.make(entry.mcp.name, {
    description: entry.mcp.description,
    parameters: options.parameters,
    success: options.success,
    failure: ErrorEnvelope,
    dependencies: [Caller]
  })
    .annotate(Tool.Title, entry.summary)
    .annotate(Tool.Readonly, hints.readOnly)
    .annotate(Tool.Destructive, hints.destructive)
    .annotate(Tool.Idempotent, hints.idempotent)
    .annotate(Tool.OpenWorld, hints.openWorld)
    .annotate(RouteAccess, routeAccess(entry))
}

/**
 * An operation's tool arguments, from its catalogue entry's input: one object of the path
 * parameters, the JSON variant of each query field (numbers as JSON numbers) and the body's fields,
 * in that order, decoded as REST decodes them.
 */
export const toolParameters = <
  const Params extends InputFields,
  const Query extends VariantSchema.Struct.Fields,
  const Body extends InputFields,
  const Headers extends InputFields
>(entry: {
  readonly input: OperationInput<Params, Query, Body, Headers>
}) => inputSchemaOf(entry, "json")

/** The access a tool was made with; undefined only for a tool not made by `marginTool`. */
export const accessOf = (tool: Tool.Any): RouteAccessShape | undefined =>
  Context.getOrUndefined(tool.annotations, RouteAccess)

/** A tool's expected failure as the agent gets it: logged when it means a dependency is away, with the request's id. */
const refused = Effect.fnUntraced(function* (failure: ApiFailure) {
  yield* logIfUnavailable(failure)
  const envelope: ErrorEnvelope = envelopeOf(failure)
  const requestId = yield* CurrentRequestId
  return yield* Effect.fail(requestId === undefined ? envelope : { ...envelope, request_id: requestId })
})

/**
 * Turns an operation's binding into a tool handler: the request's caller is authorized for the
 * tool (scope, token_unusable) first, arguments holding a NUL are refused (validation_error), the
 * use case runs with the caller at the `mcp` door, its answer becomes the tool's JSON, and every
 * expected failure becomes the `{ code, message }` a REST client would get, with the request's id,
 * answered to the agent as an `isError` result.
 */
export const toolHandlers = Effect.map(
  Authenticate,
  (authenticate) =>
    <T extends Tool.Any, A>(
      tool: T,
      run: (input: Tool.Parameters<T>, caller: OperationCaller) => Effect.Effect<A, ApiFailure>,
      toJson: (answer: A) => Tool.Success<T>
    ) =>
    (params: Tool.Parameters<T>): Effect.Effect<Tool.Success<T>, ErrorEnvelope, Caller> => {
      const access = accessOf(tool)
      if (access === undefined) return Effect.die(`tool ${tool.name} declares no RouteAccess`)
      return Caller.pipe(
        Effect.tap((caller) => authenticate.authorize(caller, access)),
        Effect.tap(() => {
          const issues = unstorableArgumentIssues(params)
          return issues.length === 0 ? Effect.void : Effect.fail(new ValidationFailed({ issues }))
        }),
        Effect.flatMap((caller) => Effect.map(run(params, operationCaller(caller, "mcp")), toJson)),
        Effect.catch(refused)
      )
    }
)
