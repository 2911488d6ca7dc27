import { randomUUID } from "node:crypto"
import { type Server, STATUS_CODES } from "node:http"
import { Socket } from "node:net"
import type { Duplex } from "node:stream"
import { failureCodes, transportCodes } from "../wire/ErrorEnvelope.ts"

interface Refusal {
  readonly status: number
  readonly code: string
  readonly message: string
}

const notHttp: Refusal = {
  status: 400,
  code: failureCodes.BadRequest.code,
  message: "The request is not valid HTTP: its request line or a header could not be read."
}

/** Node's parser errors that are not a malformed request (the rest are). */
const refusals: Readonly<Record<string, Refusal>> = {
  HPE_HEADER_OVERFLOW: { status: 431, code: transportCodes[431], message: "The request's headers are too large." },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    code: transportCodes[413],
    message: "The request's chunk extensions are too large."
  },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: transportCodes[408], message: "The request took too long to arrive." }
}

const refusalOf = (error: Error): Refusal =>
  ("code" in error && typeof error.code === "string" ? refusals[error.code] : undefined) ?? notHttp

/**
 * Answers what Node's HTTP parser refuses before any request exists (a malformed request line or
 * header, an unknown method, a Content-Length that is not a number, headers above Node's limit)
 * with the error envelope and a request id, where Node alone sends a bare status line. As Node
 * does, it answers only on a connection that has sent nothing yet (never in the middle of an
 * earlier response on a kept-alive connection), and closes the connection either way.
 */
export const answerClientErrors = <S extends Server>(server: S): S => {
  server.on("clientError", (error: Error, socket: Duplex) => {
    if (!(socket instanceof Socket) || !socket.writable || socket.bytesWritten > 0) {
      socket.destroy()
      return
    }
    const refusal = refusalOf(error)
    const requestId = randomUUID()
    const body = JSON.stringify({ code: refusal.code, message: refusal.message, request_id: requestId })
    socket.end(
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ""}\r\n` +
        "content-type: application/json\r\n" +
        `content-length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${requestId}\r\n` +
        "connection: close\r\n\r\n" +
        body,
      () => socket.destroy()
    )
  })
  return server
}
