/**
 * @margin/console: the merchant's console, a front door beside REST and MCP: server-rendered
 * pages under /app over the same use cases, signed in with the service's browser sign-in
 * (`BrowserSessions` of @margin/edge/auth). A process mounts it (@margin/runtime).
 */
export { assetSizes } from "./ConsoleAssets.ts"
export * as ConsoleRoutes from "./ConsoleRoutes.ts"
