/** Moved to @margin/edge, which the MCP server and the worker share; the REST app keeps its import. */
export { Readiness } from "@margin/edge/telemetry/Readiness"
