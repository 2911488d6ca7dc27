import { Effect, Option, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"

export interface RawReply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  readonly json: unknown
}

const parseJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))

/** An initialize request, as the first message of any client. */
export const initialize = (protocolVersion = "2025-11-25") => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw-test", version: "1.0.0" } }
})

/**
 * One raw HTTP exchange with the test server, for what an SDK client hides: statuses, headers
 * (WWW-Authenticate, Retry-After) and the refusals that happen before MCP is spoken at all.
 */
export const request = (
  method: "GET" | "POST" | "DELETE" | "OPTIONS",
  path: string,
  options: {
    readonly token?: string
    readonly headers?: Readonly<Record<string, string>>
    readonly body?: unknown
    /** Sent as they are instead of `body`, with `contentType` (default application/json). */
    readonly bytes?: Uint8Array
    readonly contentType?: string
  } = {}
) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    let outgoing = HttpClientRequest.make(method)(path)
    const contentType = options.contentType ?? "application/json"
    if (options.bytes !== undefined) outgoing = HttpClientRequest.bodyUint8Array(outgoing, options.bytes, contentType)
    else if (options.body !== undefined) {
      outgoing = HttpClientRequest.bodyText(outgoing, JSON.stringify(options.body), contentType)
    }
    outgoing = HttpClientRequest.setHeaders(outgoing, {
      accept: "application/json, text/event-stream",
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
      ...options.headers
    })
    const response = yield* client.execute(outgoing).pipe(Effect.orDie)
    const text = yield* response.text.pipe(Effect.orDie)
    const reply: RawReply = {
      status: response.status,
      headers: response.headers,
      text,
      json: Option.getOrUndefined(parseJson(text))
    }
    return reply
  })

/** POST /mcp with a JSON-RPC message. */
export const post = (
  message: unknown,
  options: { readonly token?: string; readonly headers?: Readonly<Record<string, string>> } = {}
) => request("POST", "/mcp", { ...options, body: message })
