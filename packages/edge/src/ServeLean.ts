import { Context, Effect, Layer, type Scope } from "effect"
import { HttpRouter, HttpServer } from "effect/http"

/** What the routes of an app layer read from a request's context (`HttpRouter.serve`'s request requirements). */
export type RequestRequirements<R> =
  | HttpRouter.Request.Only<"Requires", R>
  | HttpRouter.Request.Only<"GlobalRequires", R>

/** Every service of ours is keyed `margin/...` (each `Context.Service` of packages/ and apps/). */
const ownKeyPrefix = "margin/"

/**
 * The context a request starts on: the server's, less those services of ours that no route reads
 * while answering. Handlers, middlewares and use cases take the services they use when they are
 * built; a request carries the platform's (HTTP server, loggers, log level, scope...) and
 * `requestServices`.
 *
 * Why: Effect copies a request's whole context each time it merges another into it (the handler
 * group's, the transaction's, the pool connection's finalizers: five times per accept), so its size
 * is paid per request. The server's full context holds about 50 services, this one about 15.
 *
 * Only what routes read through their types survives (`serveLean` checks that at compile time);
 * an `Effect.serviceOption` of one of our services while answering finds nothing.
 */
export const leanRequestContext = <Services>(
  context: Context.Context<Services>,
  requestServices: ReadonlyArray<Context.Key<unknown, unknown>>
): Context.Context<Services> => {
  const kept = new Set(requestServices.map((service) => service.key))
  const services = new Map<string, unknown>()
  for (const [key, service] of context.mapUnsafe) {
    if (!key.startsWith(ownKeyPrefix) || kept.has(key)) services.set(key, service)
  }
  return Context.makeUnsafe(services)
}

/** Compiles only when every service a route reads while answering is among `requestServices`. */
type Covering<R, Kept extends ReadonlyArray<Context.Key<unknown, unknown>>> = [RequestRequirements<R>] extends [
  Context.Service.Identifier<Kept[number]>
]
  ? Kept
  : { readonly missing: Exclude<RequestRequirements<R>, Context.Service.Identifier<Kept[number]>> }

/** The HTTP server underneath, each request of it started on `leanRequestContext`. */
export const leanServer = (
  requestServices: ReadonlyArray<Context.Key<unknown, unknown>>
): Layer.Layer<HttpServer.HttpServer, never, HttpServer.HttpServer> =>
  Layer.effect(
    HttpServer.HttpServer,
    Effect.map(HttpServer.HttpServer, (server) =>
      HttpServer.make({
        address: server.address,
        serve: (httpEffect, middleware) =>
          Effect.updateContext(
            middleware === undefined ? server.serve(httpEffect) : server.serve(httpEffect, middleware),
            (context: Context.Context<Scope.Scope>) => leanRequestContext(context, requestServices)
          )
      })
    )
  )

/**
 * `HttpRouter.serve(appLayer, { disableLogger: true })` whose requests start on
 * `leanRequestContext`: the app is built with every service it requires, and each request runs
 * with the platform's services and `requestServices` only. `requestServices` must name every
 * service a route reads while answering, or this does not compile.
 */
export const serveLean = <A, E, R, const Kept extends ReadonlyArray<Context.Key<unknown, unknown>>>(
  appLayer: Layer.Layer<A, E, R>,
  requestServices: Covering<R, Kept> & Kept,
  options: { readonly disableListenLog?: boolean } = {}
) =>
  HttpRouter.serve(appLayer, { disableLogger: true, disableListenLog: options.disableListenLog ?? false }).pipe(
    Layer.provide(leanServer(requestServices))
  )
