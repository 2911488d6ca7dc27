/**
 * @margin/oauth: the OAuth 2.1 authorization server of the MCP front door and the service's
 * browser sign-in (e-mail link, OpenID Connect), with its sign-in and consent pages; the browser
 * session it keeps is what the console reads (`BrowserSessionsLayer`, the one implementation of
 * edge's `BrowserSessions`). A process mounts it (@margin/runtime) beside @margin/mcp-server.
 */

export { BrowserSessionsLayer } from "./browser/BrowserSessionsLayer.ts"
export { announceConsole, consoleUrl } from "./browser/ConsoleSignInLink.ts"
export { EmailLinksLayer } from "./browser/EmailLinksLayer.ts"
export { OAuthLoginSettings, type OAuthLoginSettingsShape, type OidcSettings } from "./browser/OAuthLoginSettings.ts"
export * as OAuthRoutes from "./OAuthRoutes.ts"
