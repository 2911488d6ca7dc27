import { Authenticate, Caller, type CallerShape, RouteAccess, type RouteAccessShape } from "@margin/edge/auth"
import { CurrentRequestId } from "@margin/edge/telemetry"
import { type ApiFailure, ErrorEnvelope, envelopeOf, logIfUnavailable, ValidationFailed } from "@margin/edge/wire"
import { Context, Effect, type Schema } from "effect"
import { Tool } from "effect/ai"
import { unstorableArgumentIssues } from "./UnstorableArguments.ts"

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

/** Every read tool: no change anywhere. */
export const reads: ToolHints = { readOnly: true, destructive: false, idempotent: true, openWorld: false }

/**
 * A tool of the margin server: its scope and mutation flag (`RouteAccess`, the same annotation
 * REST endpoints carry), honest hints, and failures answered as the REST error envelope.
 */
export const marginTool = <const Name extends string, P extends Schema.Top, S extends Schema.Top>(
  name: Name,
  options: {
    readonly title: string
    readonly description: string
    readonly access: RouteAccessShape
    readonly hints: ToolHints
    readonly parameters: P
    readonly success: S
  }
) =>
  Tool.make(name, {
    description: options.description,
    parameters: options.parameters,
    success: options.success,
    failure: ErrorEnvelope,
    dependencies: [Caller]
  })
    .annotate(Tool.Title, options.title)
    .annotate(Tool.Readonly, options.hints.readOnly)
    .annotate(Tool.Destructive, options.hints.destructive)
    .annotate(Tool.Idempotent, options.hints.idempotent)
    .annotate(Tool.OpenWorld, options.hints.openWorld)
    .annotate(RouteAccess, options.access)

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
 * Turns a use-case call into a tool handler: the request's caller is authorized for the tool
 * (scope, token_unusable) first, arguments holding a NUL are refused (validation_error), and
 * every expected failure becomes the `{ code, message }` a REST client would get, with the
 * request's id, answered to the agent as an `isError` result.
 */
export const toolHandlers = Effect.map(
  Authenticate,
  (authenticate) =>
    <T extends Tool.Any, R>(
      tool: T,
      body: (params: Tool.Parameters<T>, caller: CallerShape) => Effect.Effect<Tool.Success<T>, ApiFailure, R>
    ) =>
    (params: Tool.Parameters<T>): Effect.Effect<Tool.Success<T>, ErrorEnvelope, R | Caller> => {
      const access = accessOf(tool)
      if (access === undefined) return Effect.die(`tool ${tool.name} declares no RouteAccess`)
      return Caller.pipe(
        Effect.tap((caller) => authenticate.authorize(caller, access)),
        Effect.tap(() => {
          const issues = unstorableArgumentIssues(params)
          return issues.length === 0 ? Effect.void : Effect.fail(new ValidationFailed({ issues }))
        }),
        Effect.flatMap((caller) => body(params, caller)),
        Effect.catch(refused)
      )
    }
)
