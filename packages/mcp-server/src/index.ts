/**
 * @margin/mcp-server: the MCP front door: the toolkit on the use cases, its HTTP routes (/mcp and
 * the protected-resource metadata, the OAuth authorization server with its sign-in and consent
 * pages) and its stdio transport. A process mounts it (@margin/runtime).
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
export { BrowserSessionsLayer } from "./oauth/BrowserSessionsLayer.ts"
export { announceConsole, consoleUrl } from "./oauth/ConsoleSignInLink.ts"
export { EmailLinksLayer } from "./oauth/EmailLinksLayer.ts"
export { OAuthLoginSettings, type OAuthLoginSettingsShape, type OidcSettings } from "./oauth/OAuthLoginSettings.ts"
export { allowedHeaders, exposedHeaders } from "./transport/McpCors.ts"
export * as McpRoutes from "./transport/McpRoutes.ts"
export * as McpStdio from "./transport/McpStdio.ts"
