import { NodeRuntime } from "@effect/platform-node"
import { program } from "./Program.ts"

NodeRuntime.runMain(program, { disableErrorReporting: true })
