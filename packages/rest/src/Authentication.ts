import { Authenticate, budgetKey, Caller, type CallerShape, RouteAccess } from "@margin/edge/auth"
import { withLogAnnotations } from "@margin/edge/telemetry"
import { Context, Effect, Layer } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import { type HttpApiEndpoint, HttpApiMiddleware } from "effect/http-api"
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
 * token_unusable. It reads the `Authorization` header itself, so that "missing" and "malformed"
 * can be told apart.
 *
 * A plain middleware, not one declaring `HttpApiSecurity.bearer`: HttpApiBuilder applies a plain
 * one once per route, when it builds it, where a security middleware runs a generator per request
 * (decoding the credential into a `Redacted` that nothing here reads, wrapping the handler's errors)
 * and calls the middleware again each time. The OpenAPI document still says which bearer
 * credentials each operation accepts (SecuritySchemes.ts, from the operation catalogue).
 */
export class Authentication extends HttpApiMiddleware.Service<Authentication, { provides: Caller }>()(
  "margin/http/Authentication",
  {
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
    // The caller and the request's log annotations in one change of context (each costs a copy);
    // the request's log notes already name the caller (Authenticate notes it once identified).
    // Combinators rather than a generator: each generator call is a few steps of the run loop, on
    // every request.
    const withCaller =
      (caller: CallerShape) =>
      (context: Context.Context<never>): Context.Context<Caller> =>
        withLogAnnotations(Context.add(context, Caller, caller), {
          caller: budgetKey(caller),
          workspace: caller.workspaceId
        })
    // Called once per route, when HttpApiBuilder builds it: the route's access is read then.
    return Authentication.of(
      (
        httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, Caller>,
        { endpoint }: { readonly endpoint: HttpApiEndpoint.Top }
      ) => {
        const access = Context.getOrUndefined(endpoint.annotations, RouteAccess)
        if (access === undefined) return Effect.die(`endpoint ${endpoint.identifier} declares no RouteAccess`)
        return Effect.contextWith((context: Context.Context<HttpServerRequest.HttpServerRequest>) => {
          const { headers } = Context.get(context, HttpServerRequest.HttpServerRequest)
          return Effect.flatMap(
            authenticate.authenticate(
              { authorization: headers.authorization, workspaceHeader: headers["x-workspace-id"] },
              access
            ),
            (caller) => Effect.updateContext(httpEffect, withCaller(caller))
          )
        })
      }
    )
  })
)
