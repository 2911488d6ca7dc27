import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect, type Scope } from "effect"
import type { HttpServer } from "effect/http"
import { mcpUrl } from "./McpTestServer.ts"

/** What a tool call answered, as the official SDK client parsed it. */
export interface ToolOutcome {
  readonly isError: boolean
  readonly structured: unknown
  /** The first text content, parsed as JSON when it is JSON. */
  readonly json: unknown
}

export interface Agent {
  readonly client: Client
  readonly transport: StreamableHTTPClientTransport
  /** HTTP requests this agent has sent so far, connect included. */
  readonly requests: () => number
  readonly call: (name: string, args?: Record<string, unknown>) => Effect.Effect<ToolOutcome>
}

const parse = (text: string): unknown => {
  const trimmed = text.trim()
  return trimmed.startsWith("{") || trimmed.startsWith("[") ? JSON.parse(trimmed) : text
}

/**
 * An agent on the official MCP SDK client, connected over Streamable HTTP to the test server
 * with `token` as its bearer credential; closed with the scope. Fails with the SDK's error text.
 */
export const connect = (
  token: string | undefined,
  options: { readonly headers?: Readonly<Record<string, string>> } = {}
): Effect.Effect<Agent, string, HttpServer.HttpServer | Scope.Scope> =>
  Effect.flatMap(mcpUrl, (url) => connectTo(url, token, options))

/** The same agent connected to the MCP endpoint at `url` (another process, a proxy). */
export const connectTo = (
  url: URL,
  token: string | undefined,
  options: { readonly headers?: Readonly<Record<string, string>> } = {}
): Effect.Effect<Agent, string, Scope.Scope> =>
  Effect.gen(function* () {
    let requests = 0
    const counting: typeof fetch = (input, init) => {
      requests += 1
      return fetch(input, init)
    }
    const headers = { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...options.headers }
    const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: counting })
    const client = new Client({ name: "margin-test-agent", version: "1.0.0" })
    yield* Effect.acquireRelease(
      Effect.tryPromise({ try: () => client.connect(transport), catch: (error) => String(error) }),
      () => Effect.promise(() => client.close())
    )
    const call = (name: string, args: Record<string, unknown> = {}) =>
      Effect.promise(() => client.callTool({ name, arguments: args })).pipe(
        Effect.map((result): ToolOutcome => {
          const first = Array.isArray(result.content) ? result.content[0] : undefined
          const text = first !== undefined && first.type === "text" ? first.text : ""
          return { isError: result.isError === true, structured: result.structuredContent, json: parse(text) }
        })
      )
    return { client, transport, requests: () => requests, call }
  })
