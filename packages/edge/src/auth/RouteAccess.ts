import type { Scope } from "@margin/core/access/Scope"
import { acceptsSession, type GuardedOperation, isMutation } from "@margin/core/operations/Operation"
import { Context } from "effect"

/** What one operation asks of its caller; checked by `Authenticate` before the request is read. */
export interface RouteAccessShape {
  readonly scope: Scope
  /** Mutations refuse tokens whose issuing user was deleted (`token_unusable`). */
  readonly mutation: boolean
  /** First-party session JWTs are accepted (approve, reject, workspace status); elsewhere 401. */
  readonly session: boolean
}

/** Attached to each REST endpoint (and MCP tool) as an annotation, so one middleware enforces all. */
export class RouteAccess extends Context.Service<RouteAccess, RouteAccessShape>()("margin/edge/RouteAccess") {}

/** What an operation of the catalogue (`@margin/core/operations/OperationCatalogue`) asks of its caller. */
export const routeAccess = (entry: GuardedOperation): RouteAccessShape => ({
  scope: entry.access.scope,
  mutation: isMutation(entry),
  session: acceptsSession(entry)
})
