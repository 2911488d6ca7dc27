/**
 * Which redirect URIs a client may register (OAuth 2.1 section 2.3.1, RFC 8252): https anywhere;
 * http only to this machine's loopback (native apps and CLI agents listen there); a private-use
 * scheme. RFC 8252 section 7.1 asks for reverse-domain schemes (`com.example.app:`) but only as a
 * SHOULD, and stock clients use single names (Cursor's `cursor://anysphere.cursor-mcp/...`), so any
 * scheme of RFC 3986's syntax passes except those a browser or an operating system handles
 * itself: a redirect there would never reach the client's app, and some run or read something
 * (`javascript:`, `data:`, `file:`, Windows' `ms-msdt:`). Never a fragment, never userinfo.
 */
const loopbackHosts: ReadonlySet<string> = new Set(["127.0.0.1", "[::1]", "localhost"])

const schemeSyntax = /^[a-z][a-z0-9+.-]*:$/

/** Handled by the browser or the operating system, not by a client app registered for them. */
const reservedSchemes: ReadonlySet<string> = new Set([
  "about:",
  "blob:",
  "chrome:",
  "chrome-extension:",
  "data:",
  "file:",
  "filesystem:",
  "ftp:",
  "intent:",
  "javascript:",
  "jar:",
  "mailto:",
  "moz-extension:",
  "resource:",
  "search-ms:",
  "sms:",
  "tel:",
  "urn:",
  "vbscript:",
  "view-source:",
  "ws:",
  "wss:"
])

/** Windows' own handlers (`ms-settings:`, `ms-msdt:`, `ms-officecmd:`...), some of which run programs. */
const windowsSchemePrefix = "ms-"

const privateUseSchemeAcceptable = (scheme: string): boolean =>
  schemeSyntax.test(scheme) && !reservedSchemes.has(scheme) && !scheme.startsWith(windowsSchemePrefix)

export const redirectUriAcceptable = (uri: string): boolean => {
  if (!URL.canParse(uri)) return false
  const url = new URL(uri)
  if (url.hash !== "" || uri.includes("#") || url.username !== "" || url.password !== "") return false
  if (url.protocol === "https:") return url.hostname !== ""
  if (url.protocol === "http:") return loopbackHosts.has(url.hostname)
  return privateUseSchemeAcceptable(url.protocol)
}

/** An http redirect URI to this machine's loopback: its port is the client's to choose at each request. */
export const isLoopbackRedirect = (url: URL): boolean => url.protocol === "http:" && loopbackHosts.has(url.hostname)
