import { Launch, McpProcess } from "@margin/runtime"

/**
 * The MCP server alone (`npm run start:mcp`): Streamable HTTP at /mcp on HOST:MCP_PORT (8788), with
 * /metrics, /healthz and /readyz, over the same infrastructure as REST. Its wiring is McpProcess of
 * @margin/runtime.
 */
Launch.run(McpProcess.definition)
