import { Headers } from "effect/http"
import { protocols } from "../tools/ServerInfo.ts"

const revisionHeader = "mcp-protocol-version"

const supported: ReadonlySet<string> = new Set(protocols.map((protocol) => protocol.protocolVersion))

/**
 * Which `MCP-Protocol-Version` a session's requests may carry: any revision this server supports.
 * The transport (2025-06-18 and later) asks clients to send the negotiated one (a SHOULD) and
 * servers to answer 400 to an invalid or unsupported one; it does not refuse another supported
 * revision, and clients do send one (the conformance suite's concurrent POSTs name 2025-03-26 on a
 * 2025-11-25 session). Effect's server refuses any mismatch, so such a header is taken off here
 * and the session's negotiated revision governs, as for a request without the header. An
 * unsupported revision keeps its header and gets the server's 400.
 */
export const withNegotiatedRevision = (headers: Headers.Headers): Headers.Headers => {
  const revision = headers[revisionHeader]
  return headers["mcp-session-id"] !== undefined && revision !== undefined && supported.has(revision)
    ? Headers.remove(headers, revisionHeader)
    : headers
}
