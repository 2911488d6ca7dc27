import * as Launch from "@margin/runtime/process/Launch"
import * as McpStdioProcess from "@margin/runtime/processes/McpStdioProcess"

/**
 * The MCP server over stdin/stdout (`npm run mcp:stdio`) for a local agent that starts it, with the
 * API token of MARGIN_TOKEN; its logs go to stderr. Its wiring is McpStdioProcess of @margin/runtime.
 */
Launch.run(McpStdioProcess.definition)
