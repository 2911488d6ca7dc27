import type { Scope } from "@margin/core/Scope"
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

export const readAccess = (scope: Scope, options?: { readonly session?: boolean }): RouteAccessShape => ({
  scope,
  mutation: false,
  session: options?.session ?? false
})

export const mutationAccess = (scope: Scope, options?: { readonly session?: boolean }): RouteAccessShape => ({
  scope,
  mutation: true,
  session: options?.session ?? false
})

/** What a session caller (mobile and first-party apps) may do: exactly the session routes. */
export const sessionScopes: ReadonlyArray<Scope> = ["recommendations:approve", "workspace:read"]
