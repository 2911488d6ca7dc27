/**
 * Which redirect URIs a client may register (OAuth 2.1 section 2.3.1, RFC 8252): https anywhere;
 * http only to this machine's loopback (native apps and CLI agents listen there); a private-use
 * scheme of reverse-domain form (`com.example.app:/callback`). Never a fragment, never userinfo.
 */
const loopbackHosts: ReadonlySet<string> = new Set(["127.0.0.1", "[::1]", "localhost"])

const privateUseScheme = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/

export const redirectUriAcceptable = (uri: string): boolean => {
  if (!URL.canParse(uri)) return false
  const url = new URL(uri)
  if (url.hash !== "" || uri.includes("#") || url.username !== "" || url.password !== "") return false
  if (url.protocol === "https:") return url.hostname !== ""
  if (url.protocol === "http:") return loopbackHosts.has(url.hostname)
  return privateUseScheme.test(url.protocol)
}
