import { Authenticate, budgetKey } from "@margin/edge/Authenticate"
import { Caller } from "@margin/edge/Caller"
import { RouteAccess } from "@margin/edge/RouteAccess"
import { Context, Effect, Layer, References } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import { type HttpApiEndpoint, HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import type * as Types from "effect/Types"
import {
  InsufficientScopeError,
  RateLimitedError,
  RepositoryErrorError,
  TokenUnusableError,
  UnauthorizedError,
  WorkspaceForbiddenError
} from "./ApiErrors.ts"

/**
 * Resolves the `Caller` of every /api/v1 operation before anything of the request is read, with
 * the `RouteAccess` annotation of the endpoint: credential, rate budget, workspace, scope,
 * token_unusable. The bearer scheme is declared for the OpenAPI document; the header is read raw
 * so that "missing" and "malformed" can be told apart.
 */
export class Authentication extends HttpApiMiddleware.Service<Authentication, { provides: Caller }>()(
  "margin/http/Authentication",
  {
    security: { bearer: HttpApiSecurity.bearer },
    error: [
      UnauthorizedError,
      RateLimitedError,
      WorkspaceForbiddenError,
      InsufficientScopeError,
      TokenUnusableError,
      RepositoryErrorError
    ]
  }
) {}

export const layer = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const authenticate = yield* Authenticate
    // Defined once: a generator function written inside `bearer` would be a new closure per request,
    // and V8 builds a new map and prototype for each (docs/api.md, Performance).
    const authenticated = Effect.fnUntraced(function* (
      httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, Caller>,
      endpoint: HttpApiEndpoint.Top
    ) {
      const access = Context.getOrUndefined(endpoint.annotations, RouteAccess)
      if (access === undefined) return yield* Effect.die(`endpoint ${endpoint.identifier} declares no RouteAccess`)
      const request = yield* HttpServerRequest.HttpServerRequest
      const caller = yield* authenticate.authenticate(
        { authorization: request.headers.authorization, workspaceHeader: request.headers["x-workspace-id"] },
        access
      )
      // The request's log notes already name the caller (Authenticate notes it once identified).
      // One change of context (each costs a copy) for the caller and the request's log annotations.
      return yield* Effect.updateContext(httpEffect, (context: Context.Context<never>) =>
        context.pipe(
          Context.add(Caller, caller),
          Context.add(References.CurrentLogAnnotations, {
            ...Context.get(context, References.CurrentLogAnnotations),
            caller: budgetKey(caller),
            workspace: caller.workspaceId
          })
        )
      )
    })
    return Authentication.of({ bearer: (httpEffect, { endpoint }) => authenticated(httpEffect, endpoint) })
  })
)
