import { PgClient } from "@effect/sql-pg/PgClient"
import { Context, Effect, FileSystem, Layer, Path, type Scope, Stdio, Terminal } from "effect"
import { Etag, HttpPlatform, HttpRouter, HttpServer } from "effect/http"
import { ChildProcessSpawner } from "effect/process/ChildProcessSpawner"
import { SqlClient } from "effect/sql/SqlClient"

/** What the routes of an app layer read from a request's context (`HttpRouter.serve`'s request requirements). */
export type RequestRequirements<R> =
  | HttpRouter.Request.Only<"Requires", R>
  | HttpRouter.Request.Only<"GlobalRequires", R>

/** Every service of ours is keyed `margin/...` (each `Context.Service` of packages/ and apps/). */
const ownKeyPrefix = "margin/"

/**
 * The platform's services that the server's layers use while they are built and no route reads
 * while answering (a route that did would name it in its requirements, which `serveLean` checks):
 * files, paths, the terminal and child processes of NodeServices, file responses, and the SQL
 * client, which the repositories took when built. References (loggers, log level, tracer, scope)
 * are not among them: Effect reads those from every request's context.
 */
const platformServicesNotReadWhileAnswering: ReadonlyArray<Context.Key<unknown, unknown>> = [
  FileSystem.FileSystem,
  Path.Path,
  Stdio.Stdio,
  Terminal.Terminal,
  ChildProcessSpawner,
  HttpPlatform.HttpPlatform,
  Etag.Generator,
  SqlClient,
  PgClient
]

const platformKeys = new Set(platformServicesNotReadWhileAnswering.map((service) => service.key))

/**
 * The context a request starts on: the server's, less the services of ours and of the platform
 * that no route reads while answering. Handlers, middlewares and use cases take the services they
 * use when they are built; a request carries the platform's references (loggers, log level,
 * tracer, scope...), the HTTP server and `requestServices`.
 *
 * Why: Effect copies a request's whole context each time it merges another into it (the handler
 * group's, the transaction's, the pool connection's finalizers: four times per accept), so its
 * size is paid per request. The server's full context holds about 50 services, this one 7, to
 * which a request adds about 10 of its own.
 *
 * Only what routes read through their types survives (`serveLean` checks that at compile time);
 * an `Effect.serviceOption` of a dropped service while answering finds nothing.
 */
export const leanRequestContext = <Services>(
  context: Context.Context<Services>,
  requestServices: ReadonlyArray<Context.Key<unknown, unknown>>
): Context.Context<Services> => {
  const kept = new Set(requestServices.map((service) => service.key))
  const services = new Map<string, unknown>()
  for (const [key, service] of context.mapUnsafe) {
    if (kept.has(key) || !(key.startsWith(ownKeyPrefix) || platformKeys.has(key))) services.set(key, service)
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
