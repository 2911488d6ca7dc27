import { Launch, McpStdioProcess } from "@margin/runtime"

/**
 * The MCP server over stdin/stdout (`npm run mcp:stdio`) for a local agent that starts it, with the
 * API token of MARGIN_TOKEN; its logs go to stderr. Its wiring is McpStdioProcess of @margin/runtime.
 */
Launch.run(McpStdioProcess.definition)
