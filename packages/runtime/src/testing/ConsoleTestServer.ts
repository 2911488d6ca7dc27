import { randomBytes } from "node:crypto"
import { NodeServices } from "@effect/platform-node"
import * as MemoryAdapters from "@margin/core/memory/MemoryAdapters"
import * as MemoryIdentityKeyStore from "@margin/core/memory/MemoryIdentityKeyStore"
import * as MemoryMailer from "@margin/core/memory/MemoryMailer"
import { ScriptedStoreCatalog } from "@margin/core/testing/ScriptedStoreCatalog"
import * as ScriptedStoreConnectionCheck from "@margin/core/testing/ScriptedStoreConnectionCheck"
import { WriteBackOutbox } from "@margin/core/writeback/WriteBackOutbox"
import { SessionSigner, SessionVerifier } from "@margin/edge/auth"
import { serveLean } from "@margin/edge/serving"
import { Readiness } from "@margin/edge/telemetry"
import { Effect, Layer, Redacted, References } from "effect"
import { HttpServer } from "effect/http"
import { UseCasesLayer } from "../infrastructure/UseCases.ts"
import * as RestProcess from "../processes/RestProcess.ts"
import { loopbackServer } from "./McpTestServer.ts"

/**
 * The whole app of `npm start` (REST, MCP, the OAuth sign-in and the console) on an ephemeral port
 * of 127.0.0.1, over the in-memory adapters, with the sign-in mails kept (MemoryOutbox): what a
 * browser test drives end to end.
 */
export const layer = (options: { readonly rateLimit?: number } = {}) => {
  const identity = MemoryIdentityKeyStore.layer
  return serveLean(
    RestProcess.app({ oauthLogin: { emailLink: true, key: Redacted.make(randomBytes(32)) } }),
    [WriteBackOutbox],
    { disableListenLog: true }
  ).pipe(
    Layer.provideMerge(loopbackServer),
    Layer.provide(Readiness.layerAlwaysReady),
    Layer.provideMerge(UseCasesLayer),
    // The store that syncs read: scripted by the tests (the servers read the platforms').
    Layer.provideMerge(ScriptedStoreCatalog.layer),
    Layer.provide(ScriptedStoreConnectionCheck.layer),
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
