import { request as httpRequest } from "node:http"
import * as McpTestServer from "@margin/runtime/testing/McpTestServer"
import { Effect } from "effect"

/** What the server answered, headers as Node reads them (set-cookie a list). */
export interface RawHttpReply {
  readonly status: number
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly text: string
}

/**
 * One exchange with the test server over node:http, which (unlike fetch) sends any `Host` and
 * bytes as given: for requests a browser would never send, as an attacker does.
 */
export const rawHttp = (input: {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
  /** The client's own address (any of 127.0.0.0/8 reaches the server): another remote address for the server. */
  readonly localAddress?: string
}) =>
  Effect.flatMap(McpTestServer.origin, (server) =>
    Effect.callback<RawHttpReply>((resume) => {
      const outgoing = httpRequest(
        new URL(server),
        {
          method: input.method,
          path: input.path,
          agent: false,
          headers: input.headers ?? {},
          ...(input.localAddress === undefined ? {} : { localAddress: input.localAddress })
        },
        (incoming) => {
          const chunks: Array<Buffer> = []
          incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
          incoming.on("end", () =>
            resume(
              Effect.succeed({
                status: incoming.statusCode ?? 0,
                headers: incoming.headers,
                text: Buffer.concat(chunks).toString("utf8")
              })
            )
          )
        }
      )
      outgoing.on("error", (error) => resume(Effect.die(error)))
      outgoing.end(input.body)
    })
  )

/** A header's value as one string (set-cookie joined). */
export const headerOf = (reply: RawHttpReply, name: string): string => {
  const value = reply.headers[name]
  return value === undefined ? "" : typeof value === "string" ? value : value.join("\n")
}

/** The `name=value` pairs of a reply's Set-Cookie headers, for a Cookie header. */
export const cookiesOf = (reply: RawHttpReply): string => {
  const value = reply.headers["set-cookie"]
  const lines = value === undefined ? [] : typeof value === "string" ? [value] : value
  return lines.map((line) => line.split(";")[0] ?? "").join("; ")
}

/** The value of a hidden field of a page. */
export const hiddenField = (html: string, name: string): string | undefined => {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html)
  return match?.[1]?.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
}
