import { NodeHttpServer } from "@effect/platform-node"
import { ConsoleRoutes } from "@margin/console"
import { EmailConfirmation } from "@margin/core/access/EmailConfirmation"
import { WorkspaceMembers } from "@margin/core/access/WorkspaceMembers"
import { WriteBackOutbox } from "@margin/core/writeback/WriteBackOutbox"
import { serveLean } from "@margin/edge/serving"
import { Readiness } from "@margin/edge/telemetry"
import { Jobs, WorkerBackgroundRuns } from "@margin/jobs"
import { MailerLayer } from "@margin/mail"
import { McpRoutes, McpSettings, type McpSettingsShape, mcpSettingsConfig, publicUrlAdvice } from "@margin/mcp-server"
import {
  announceConsole,
  BrowserSessionsLayer,
  EmailLinksLayer,
  OAuthLoginSettings,
  type OAuthLoginSettingsShape,
  OAuthRoutes
} from "@margin/oauth"
import { DatabaseConfig } from "@margin/postgres"
import { createNodeServer, HttpApp } from "@margin/rest"
import { Cause, Effect, Fiber, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { serverConfig } from "../config/ServerConfig.ts"
import * as ServerProcess from "../infrastructure/ServerProcess.ts"
import type { ProcessDefinition } from "../lifecycle/Launch.ts"
import * as Logging from "../lifecycle/Logging.ts"
import { ensurePortFree, listenFailureSaid } from "../lifecycle/PortCheck.ts"

export interface AppOptions {
  readonly maxBodyBytes?: number
  /** PUBLIC_URL: the OpenAPI document's server. */
  readonly publicUrl?: string
  /** The MCP front door's settings, when the process has read them already; else from the environment. */
  readonly mcpSettings?: McpSettingsShape
  /** How users sign in to consent to OAuth clients; else from the environment. */
  readonly oauthLogin?: OAuthLoginSettingsShape
  /** Print the console's address and a sign-in link for this user's e-mail (`npm start`: the demo owner) under `origin`. */
  readonly announceConsole?: { readonly email: string; readonly origin: string }
}

/**
 * The REST front door (@margin/rest) with the MCP front door (@margin/mcp-server), the OAuth
 * authorization server and its sign-in pages (@margin/oauth) and the console (@margin/console, /app)
 * mounted beside it on one router, so that one process serves all of them on
 * one rate budget; a run queued through any wakes this process's run worker (WorkerBackgroundRuns).
 * The console reads the browser session of the OAuth server's sign-in pages (BrowserSessionsLayer),
 * built on the same settings, hence the same signing key. Needs the use cases, `Readiness`, the
 * ports and the HTTP platform; the test server serves the same (testing/TestServer).
 */
export const app = (options: AppOptions = {}) =>
  HttpApp.layer({
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
    beside: {
      layer: Layer.mergeAll(
        McpRoutes.layer,
        OAuthRoutes.layer,
        // The settings' use cases that mail links signed with the sign-in key (EmailLinksLayer).
        ConsoleRoutes.layer.pipe(
          Layer.provide([
            BrowserSessionsLayer,
            Layer.mergeAll(WorkspaceMembers.layer, EmailConfirmation.layer).pipe(Layer.provide(EmailLinksLayer))
          ])
        ),
        options.announceConsole === undefined
          ? Layer.empty
          : announceConsole(options.announceConsole.email, options.announceConsole.origin)
      ).pipe(
        Layer.provide(
          Layer.mergeAll(
            options.mcpSettings === undefined ? McpSettings.layerConfig : McpSettings.layerWith(options.mcpSettings),
            options.oauthLogin === undefined
              ? OAuthLoginSettings.layer
              : OAuthLoginSettings.layerWith(options.oauthLogin)
          )
        )
      ),
      routes: [...McpRoutes.routes, ...OAuthRoutes.routes, ...ConsoleRoutes.routes]
    }
  }).pipe(Layer.provide(WorkerBackgroundRuns.layer))

/** Every route `app` serves: its request spans are named by their route templates. */
const routes = HttpApp.routesWith([...McpRoutes.routes, ...OAuthRoutes.routes, ...ConsoleRoutes.routes])

export interface ServerOptions<E> {
  /**
   * Runs beside the start from once PORT is known to be free (`npm start`: the demo seed, a
   * process of its own on the same database, which starts while this one opens and migrates it);
   * the background loops start and requests are served only once it has finished, and its failure
   * stops the start like any other.
   */
  readonly beforeServing?: Effect.Effect<void, E>
  /** Print the console's address and a sign-in link for this e-mail once served (`npm start`: the demo owner). */
  readonly consoleSignInFor?: string
}

/**
 * The REST server (and the MCP front door on the same router):
 *   ServerInfrastructure (database migrated, PostgreSQL adapters, store router, rate budget)
 *   -> the use cases (core's, Authenticate) + SessionVerifier + Readiness (ServerProcess)
 *   -> `beforeServing`, if any, awaited (started beside the infrastructure's start)
 *   -> `app` (routes, middlewares, response guard) served by Node on HOST:PORT,
 *      and Jobs.layer (@margin/jobs: the background loops of apps/worker, in this process too).
 * SIGTERM / SIGINT interrupt the main fiber: the server stops accepting, lets in-flight requests
 * finish (SHUTDOWN_TIMEOUT, default 20 s), then the layers close in reverse order.
 */
const serverWith = <E>(options: ServerOptions<E>) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const config = yield* serverConfig
      const mcp = yield* mcpSettingsConfig
      const dataDir = yield* DatabaseConfig.dataDirVariable
      // The OAuth sign-in links' outbox (SMTP_URL, else .eml files under <DATA_DIR>/outbox/oauth-login).
      // Optional: without a mailer the link is still logged, so a mail setting cannot stop the server.
      const mailer = MailerLayer.layerConfig(
        "oauth-login",
        dataDir.trim() === "" ? DatabaseConfig.defaultDataDir : dataDir
      ).pipe(
        Layer.catchCause((cause) =>
          Layer.effectDiscard(
            Effect.logWarning("OAuth sign-in links will only be logged: no mailer", Cause.pretty(cause))
          )
        )
      )
      const address = { host: config.host, port: config.port, portSetting: "PORT" }
      // Said before the database is opened, rather than after the migrations.
      yield* ensurePortFree(address)
      yield* publicUrlAdvice(config.host, mcp)
      // Started now, beside the database's start; awaited once the infrastructure is built (it needs
      // the database) and before the serving layers, to which it is provided.
      const before =
        options.beforeServing === undefined
          ? Layer.empty
          : Layer.effectDiscard(
              Effect.andThen(SqlClient.SqlClient, Fiber.join(yield* Effect.forkScoped(options.beforeServing)))
            )
      return Layer.mergeAll(
        // Requests start on the services routes read while answering (/metrics: the outbox's backlog).
        serveLean(
          app({
            maxBodyBytes: config.maxBodyBytes,
            mcpSettings: mcp,
            ...(config.publicUrl === null ? {} : { publicUrl: config.publicUrl }),
            ...(options.consoleSignInFor === undefined
              ? {}
              : {
                  announceConsole: {
                    email: options.consoleSignInFor,
                    origin: listenOrigin(config.host, config.port, mcp.publicUrl)
                  }
                })
          }).pipe(Layer.provide(mailer)),
          [WriteBackOutbox]
        ),
        // The background loops (write-back delivery, runs) run in this process too, so `npm start` alone
        // delivers; their deliveries use the WRITE_BACK_* settings, like apps/worker.
        Jobs.layer
      ).pipe(
        Layer.provide(before),
        Layer.provide(Readiness.layerSql),
        Layer.provide(ServerProcess.useCasesLayer(config)),
        Layer.provide(
          listenFailureSaid(
            NodeHttpServer.layer(
              () => createNodeServer({ corsOrigins: mcp.allowedOrigins, limits: config.connectionLimits }),
              {
                port: config.port,
                host: config.host,
                gracefulShutdownTimeout: config.shutdownTimeout
              }
            ),
            address
          )
        )
      )
    })
  )

/**
 * The origin people reach this server at: the configured public URL, else the listen address (a
 * wildcard host named as the loopback address, which the sign-in pages trust).
 */
const listenOrigin = (host: string, port: number, publicUrl: string | null): string =>
  publicUrl ??
  `http://${host === "0.0.0.0" || host === "::" || host === "" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host}:${port}`

/** The REST server with `options` (`npm start`: the demo seed before serving). */
export const definitionWith = <E>(options: ServerOptions<E>) =>
  ({
    layer: serverWith(options),
    serviceName: "margin-http",
    spanName: HttpApp.spanNameOf(routes),
    logging: Logging.stdout,
    serves: true
  }) satisfies ProcessDefinition<unknown>

/** `npm run serve` (apps/http/src/main.ts): the REST server alone. */
export const definition = definitionWith({})
