/**
 * @margin/runtime: the one wiring of every process: the infrastructure of the ports, the use cases
 * on it, and each process an app launches (`Launch.run(RestProcess.definition)`). The CLI's layers
 * are "@margin/runtime/cli"; V8 tuning and the logger alone, "@margin/runtime/lifecycle"; the test
 * kits, "@margin/runtime/testing/*".
 */
export * as ObservedPorts from "./infrastructure/ObservedPorts.ts"
export * as ServerInfrastructure from "./infrastructure/ServerInfrastructure.ts"
export * as Launch from "./lifecycle/Launch.ts"
export * as McpProcess from "./processes/McpProcess.ts"
export * as McpStdioProcess from "./processes/McpStdioProcess.ts"
export * as RestProcess from "./processes/RestProcess.ts"
export * as WorkerProcess from "./processes/WorkerProcess.ts"
