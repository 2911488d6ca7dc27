import { NodeRuntime } from "@effect/platform-node"
import { DeprecatedOperations } from "@margin/edge/wire"
import { Effect } from "effect"
import { program } from "../Program.ts"
import { testDeprecations } from "./TestDeprecations.ts"

// marginctl exactly as main.ts runs it, with the tests' deprecated operations in place of production's (none).
NodeRuntime.runMain(program.pipe(Effect.provideService(DeprecatedOperations, testDeprecations)), {
  disableErrorReporting: true
})
