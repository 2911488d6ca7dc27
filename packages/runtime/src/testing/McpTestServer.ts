import { randomBytes } from "node:crypto"
import { createServer } from "node:http"
import { NodeHttpServer, NodeServices } from "@effect/platform-node"
import * as MemoryAdapters from "@margin/core/memory/MemoryAdapters"
import * as MemoryIdentityKeyStore from "@margin/core/memory/MemoryIdentityKeyStore"
import * as MemoryMailer from "@margin/core/memory/MemoryMailer"
import { ScriptedStoreCatalog } from "@margin/core/testing/ScriptedStoreCatalog"
import * as ScriptedStoreConnectionCheck from "@margin/core/testing/ScriptedStoreConnectionCheck"
import { SessionSigner, SessionVerifier } from "@margin/edge/auth"
import { serveLean } from "@margin/edge/serving"
import { WorkerBackgroundRuns } from "@margin/jobs"
import { defaultSessionLimits, McpRoutes, McpSettings, type SessionLimits } from "@margin/mcp-server"
import { OAuthLoginSettings, OAuthRoutes, type OidcSettings } from "@margin/oauth"
import { Effect, Layer, Redacted, References } from "effect"
import { FetchHttpClient, HttpServer } from "effect/http"
import { UseCasesLayer } from "../infrastructure/UseCases.ts"

export interface McpTestServerOptions {
  readonly rateLimit?: number
  readonly allowedOrigins?: ReadonlyArray<string>
  readonly publicUrl?: string
  readonly sessions?: Partial<SessionLimits>
  /** Sign-in through an upstream OpenID Connect provider, as OIDC_* configure it. */
  readonly oidc?: OidcSettings
}

/**
 * The MCP front door alone on an ephemeral port of 127.0.0.1 over the in-memory adapters, with
 * the memory ports for seeding and a development session signer (to show sessions are refused).
 */
/** A server on 127.0.0.1 only (the test server of @effect/platform-node listens on every interface). */
export const loopbackServer = HttpServer.layerTestClient.pipe(
  Layer.provide(
    Layer.fresh(FetchHttpClient.layer).pipe(
      Layer.provide(Layer.succeed(FetchHttpClient.RequestInit, { keepalive: false }))
    )
  ),
  Layer.provideMerge(
    NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1", gracefulShutdownTimeout: "500 millis" })
  )
)

export const layer = (options: McpTestServerOptions = {}) => {
  const identity = MemoryIdentityKeyStore.layer
  // As the servers serve it: requests start on the services routes read while answering (none here).
  return serveLean(Layer.merge(McpRoutes.layer, OAuthRoutes.layer), [], { disableListenLog: true }).pipe(
    Layer.provideMerge(loopbackServer),
    Layer.provide(WorkerBackgroundRuns.layer),
    Layer.provide(
      McpSettings.layerWith({
        allowedOrigins: options.allowedOrigins ?? [],
        publicUrl: options.publicUrl ?? null,
        sessions: { ...defaultSessionLimits, ...options.sessions }
      })
    ),
    // Sign-in by e-mail link on, whichever database the tests run on.
    Layer.provide(
      OAuthLoginSettings.layerWith({
        emailLink: true,
        key: Redacted.make(randomBytes(32)),
        ...(options.oidc === undefined ? {} : { oidc: options.oidc })
      })
    ),
    Layer.provideMerge(UseCasesLayer),
    // The store that syncs read: scripted by the tests (the servers read the platforms').
    Layer.provideMerge(ScriptedStoreCatalog.layer),
    Layer.provide(ScriptedStoreConnectionCheck.layer),
    // The sign-in links' outbox (MemoryOutbox), as the .eml transport would keep them.
    Layer.provideMerge(MemoryMailer.layer),
    Layer.provide(SessionVerifier.layer.pipe(Layer.provide([identity, NodeServices.layer]))),
    Layer.provideMerge(SessionSigner.layerDevelopment.pipe(Layer.provide(identity))),
    Layer.provideMerge(MemoryAdapters.layerWith({ rateLimit: options.rateLimit ?? 1_000_000 })),
    Layer.provide(Layer.succeed(References.MinimumLogLevel, "Error")),
    Layer.orDie
  )
}

/** The server's origin, `http://127.0.0.1:<port>`. */
export const origin = HttpServer.addressFormattedWith(Effect.succeed)

/** The URL of the MCP endpoint. */
export const mcpUrl = Effect.map(origin, (base) => new URL(`${base}/mcp`))
