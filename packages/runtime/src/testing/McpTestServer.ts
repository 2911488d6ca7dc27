import { createServer } from "node:http"
import { NodeHttpServer, NodeServices } from "@effect/platform-node"
import * as MemoryAdapters from "@margin/core/memory/MemoryAdapters"
import * as MemoryIdentityKeyStore from "@margin/core/memory/MemoryIdentityKeyStore"
import { SessionSigner, SessionVerifier } from "@margin/edge/auth"
import { serveLean } from "@margin/edge/serving"
import { WorkerBackgroundRuns } from "@margin/jobs"
import { defaultSessionLimits, McpRoutes, McpSettings, type SessionLimits } from "@margin/mcp-server"
import { Effect, Layer, References } from "effect"
import { FetchHttpClient, HttpServer } from "effect/http"
import { UseCasesLayer } from "../infrastructure/UseCases.ts"

export interface McpTestServerOptions {
  readonly rateLimit?: number
  readonly allowedOrigins?: ReadonlyArray<string>
  readonly publicUrl?: string
  readonly sessions?: Partial<SessionLimits>
}

/**
 * The MCP front door alone on an ephemeral port of 127.0.0.1 over the in-memory adapters, with
 * the memory ports for seeding and a development session signer (to show sessions are refused).
 */
/** A server on 127.0.0.1 only (the test server of @effect/platform-node listens on every interface). */
const loopbackServer = HttpServer.layerTestClient.pipe(
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
  return serveLean(McpRoutes.layer, [], { disableListenLog: true }).pipe(
    Layer.provideMerge(loopbackServer),
    Layer.provide(WorkerBackgroundRuns.layer),
    Layer.provide(
      McpSettings.layerWith({
        allowedOrigins: options.allowedOrigins ?? [],
        publicUrl: options.publicUrl ?? null,
        sessions: { ...defaultSessionLimits, ...options.sessions }
      })
    ),
    Layer.provideMerge(UseCasesLayer),
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
