import type { McpSettingsShape } from "../McpSettings.ts"

/** The names a browser uses for this machine: a page can only send them in Host over loopback. */
const loopbackNames = new Set(["localhost", "127.0.0.1", "[::1]"])

const hostnameOf = (host: string): string => {
  const bracket = host.startsWith("[") ? host.indexOf("]") : -1
  if (bracket > 0) return host.slice(0, bracket + 1)
  const colon = host.indexOf(":")
  return colon === -1 ? host : host.slice(0, colon)
}

/**
 * Whether a browser page of `origin` may call /mcp (DNS rebinding, CORS): an origin listed in
 * MCP_ALLOWED_ORIGINS, MCP_PUBLIC_URL's origin, or the server's own origin as the browser reached
 * it over loopback: `Origin` is `http://<Host>` and the Host's name is localhost, 127.0.0.1 or
 * [::1]. A rebinding page cannot pass the last rule: the browser sends the attacker's name in both
 * Origin and Host, and it is not a loopback name. A Host alone is not trusted otherwise, for the
 * same reason.
 */
export const isAllowedOrigin = (settings: McpSettingsShape, origin: string, host: string | undefined): boolean => {
  if (settings.allowedOrigins.includes(origin) || origin === settings.publicUrl) return true
  if (host === undefined) return false
  const own = host.toLowerCase()
  return loopbackNames.has(hostnameOf(own)) && origin.toLowerCase() === `http://${own}`
}
