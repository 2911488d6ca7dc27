import { Authenticate, budgetKey, Caller, type CallerShape, RouteAccess } from "@margin/edge/auth"
import { withLogAnnotations } from "@margin/edge/telemetry"
import { Context, Effect, Layer } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import type * as Types from "effect/Types"
import { Authentication } from "./Authentication.ts"

/**
 * The server side of `Authentication`: credential, rate budget, workspace, scope, token_unusable,
 * with the `RouteAccess` annotation of the endpoint. Apart from the middleware's tag so that the
 * API definition (`@margin/rest/api`) loads none of it.
 */
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
