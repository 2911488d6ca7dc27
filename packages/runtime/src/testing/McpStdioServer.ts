import { NodeServices } from "@effect/platform-node"
import * as MemoryAdapters from "@margin/core/memory/MemoryAdapters"
import * as MemoryIdentityKeyStore from "@margin/core/memory/MemoryIdentityKeyStore"
import { ScriptedStoreCatalog } from "@margin/core/testing/ScriptedStoreCatalog"
import * as ScriptedStoreConnectionCheck from "@margin/core/testing/ScriptedStoreConnectionCheck"
import { SessionVerifier } from "@margin/edge/auth"
import { WorkerBackgroundRuns } from "@margin/jobs"
import { McpStdio } from "@margin/mcp-server"
import { ConfigProvider, Layer, References } from "effect"
import { UseCasesLayer } from "../infrastructure/UseCases.ts"
import { StdioPipe } from "./StdioPipe.ts"

/**
 * The stdio server in process over the memory adapters, its stdin and stdout piped to an SDK
 * transport (`StdioPipe`), with MARGIN_TOKEN set to `token` (seed a token with that secret).
 */
export const layer = (options: { readonly token: string; readonly rateLimit?: number }) =>
  McpStdio.layer.pipe(
    Layer.provide(WorkerBackgroundRuns.layer),
    Layer.provideMerge(StdioPipe.layer),
    Layer.provideMerge(UseCasesLayer),
    // The store that syncs read: scripted by the tests (the servers read the platforms').
    Layer.provideMerge(ScriptedStoreCatalog.layer),
    Layer.provide(ScriptedStoreConnectionCheck.layer),
    Layer.provide(SessionVerifier.layer.pipe(Layer.provide([MemoryIdentityKeyStore.layer, NodeServices.layer]))),
    Layer.provideMerge(MemoryAdapters.layerWith({ rateLimit: options.rateLimit ?? 1_000_000 })),
    Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord({ MARGIN_TOKEN: options.token }))),
    Layer.provide(Layer.succeed(References.MinimumLogLevel, "Error")),
    Layer.orDie
  )
