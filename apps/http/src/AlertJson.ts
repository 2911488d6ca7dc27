// Moved to @margin/edge so that REST and MCP share one wire schema; import from there.
export * from "@margin/edge/AlertJson"
