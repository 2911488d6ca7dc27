import { createServer, request } from "node:http"
import { Effect } from "effect"

/**
 * A pass-through HTTP proxy on 127.0.0.1 that adds `Authorization: Bearer <token>` to every
 * request: the conformance client cannot send credentials, and the server refuses requests
 * without them. Everything else (method, path, Host, Origin, body, streamed answers) is forwarded
 * untouched, so the server's own checks (origin, protocol headers) are what the suite sees.
 * The route is read per request: the proxy starts before the server it forwards to.
 */
export interface ProxyRoute {
  readonly target: URL
  readonly token: string
}

export const tokenProxy = (route: () => ProxyRoute | undefined) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly origin: string; readonly close: () => void }>((resume) => {
      const server = createServer((incoming, outgoing) => {
        const to = route()
        if (to === undefined) {
          outgoing.writeHead(503)
          outgoing.end()
          return
        }
        const forwarded = request(
          {
            host: to.target.hostname,
            port: to.target.port,
            method: incoming.method,
            path: incoming.url,
            headers: { ...incoming.headers, authorization: `Bearer ${to.token}` },
            // One connection per request on both sides, so that nothing idles open at the end.
            agent: false
          },
          (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, { ...answer.headers, connection: "close" })
            answer.pipe(outgoing)
          }
        )
        forwarded.on("error", () => {
          if (!outgoing.headersSent) outgoing.writeHead(502)
          outgoing.end()
        })
        incoming.pipe(forwarded)
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        resume(
          Effect.succeed({
            origin: `http://127.0.0.1:${port}`,
            close: () => {
              server.closeAllConnections()
              server.close()
            }
          })
        )
      })
    }),
    (proxy) => Effect.sync(proxy.close)
  )
