// Moved to @margin/edge so that the REST and MCP tests seed alike; import from there.
export * from "@margin/edge/testing/World"
