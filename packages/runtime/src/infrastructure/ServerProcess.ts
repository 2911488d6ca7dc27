import { NodeServices } from "@effect/platform-node"
import { SessionVerifier } from "@margin/edge/auth"
import { Layer } from "effect"
import type { InfrastructureOptions } from "../config/InfrastructureConfig.ts"
import * as ServerInfrastructure from "./ServerInfrastructure.ts"
import { UseCasesLayer } from "./UseCases.ts"

/**
 * What every long-running front-door process (REST, MCP alone, MCP over stdio) stands on: the
 * use cases, `Authenticate` and `Approval` (`UseCasesLayer`) and the session verifier, over the
 * real infrastructure (`ServerInfrastructure`: migrated database, adapters, store router, the
 * shared rate budget), which it also provides.
 */
export const useCasesLayer = (options: InfrastructureOptions) =>
  UseCasesLayer.pipe(
    Layer.provideMerge(SessionVerifier.layer.pipe(Layer.provide(NodeServices.layer))),
    Layer.provideMerge(ServerInfrastructure.layer(options))
  )
