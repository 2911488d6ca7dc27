// Moved to @margin/edge so that REST and MCP run triggered runs alike; import from there.
export * from "@margin/edge/BackgroundRuns"
