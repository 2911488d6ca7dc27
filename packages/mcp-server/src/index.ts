/**
 * @margin/mcp-server: the MCP front door: the toolkit on the use cases, its HTTP routes (/mcp and
 * the protected-resource metadata) and its stdio transport. A process mounts it (@margin/runtime),
 * beside the OAuth authorization server that issues its tokens (@margin/oauth).
 */

export * as ProtectedResource from "./auth/ProtectedResource.ts"
export { marginToken } from "./auth/StdioAuthentication.ts"
export {
  defaultSessionLimits,
  McpSettings,
  type McpSettingsShape,
  mcpSettingsConfig,
  publicUrlAdvice,
  type SessionLimits
} from "./McpSettings.ts"
export { allowedHeaders, exposedHeaders } from "./transport/McpCors.ts"
export * as McpRoutes from "./transport/McpRoutes.ts"
export * as McpStdio from "./transport/McpStdio.ts"
