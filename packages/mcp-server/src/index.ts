/**
 * @margin/mcp-server: the MCP front door: the toolkit on the use cases, its HTTP routes (/mcp and
 * the protected-resource metadata, the OAuth authorization server with its sign-in and consent
 * pages) and its stdio transport. A process mounts it (@margin/runtime).
 */
export { BrowserSessionsLayer } from "./BrowserSessionsLayer.ts"
export { announceConsole, consoleUrl } from "./ConsoleSignInLink.ts"
export { allowedHeaders, exposedHeaders } from "./McpCors.ts"
export * as McpRoutes from "./McpRoutes.ts"
export {
  defaultSessionLimits,
  McpSettings,
  type McpSettingsShape,
  mcpSettingsConfig,
  publicUrlAdvice,
  type SessionLimits
} from "./McpSettings.ts"
export * as McpStdio from "./McpStdio.ts"
export { OAuthLoginSettings, type OAuthLoginSettingsShape, type OidcSettings } from "./OAuthLoginSettings.ts"
export * as ProtectedResource from "./ProtectedResource.ts"
export { marginToken } from "./StdioAuthentication.ts"
