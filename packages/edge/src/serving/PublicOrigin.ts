import { Context, Effect, Layer } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"

/**
 * Where clients reach this server (MCP_PUBLIC_URL's origin, `https://margin.example.com`); null:
 * the request's own Host, if it is a loopback name. The MCP front door and the OAuth authorization
 * server beside it name themselves by the same origin (the issuer is the resource's origin), so one
 * setting says it for both; the MCP settings' layers provide this service with it.
 */
export class PublicOrigin extends Context.Service<PublicOrigin, { readonly publicUrl: string | null }>()(
  "margin/edge/PublicOrigin"
) {
  static readonly layerWith = (publicUrl: string | null): Layer.Layer<PublicOrigin> =>
    Layer.succeed(PublicOrigin, PublicOrigin.of({ publicUrl }))
}

/** Where the MCP endpoint is served: the protected resource the OAuth server issues its tokens for. */
export const mcpPath = "/mcp"

/** A Host a client on this machine sends to a loopback server: a loopback name, maybe a port, nothing else. */
const loopbackHost = /^(?:localhost|127\.0\.0\.1|\[::1\])(?::[0-9]{1,5})?$/

/**
 * The origin every absolute URL the service builds starts with (the sign-in mail's link, the
 * metadata, the issuer, challenges, redirects): MCP_PUBLIC_URL's, whatever Host the request names;
 * without it, only a loopback Host (`localhost`, `127.0.0.1`, `[::1]`, with a port), over http, as
 * `npm start` is reached on this machine. Any other Host is not trusted (undefined): a request
 * cannot make the service write an origin of its choosing into a link or a header.
 * `X-Forwarded-*` headers are never read: behind a proxy, MCP_PUBLIC_URL says where clients are.
 */
export const originOf = (
  settings: { readonly publicUrl: string | null },
  request: HttpServerRequest.HttpServerRequest
): string | undefined => {
  if (settings.publicUrl !== null) return settings.publicUrl
  const host = request.headers.host?.toLowerCase()
  return host !== undefined && loopbackHost.test(host) ? `http://${host}` : undefined
}

/** Why a request whose Host is not trusted gets no URL of this server (`originOf` undefined). */
export const untrustedHost =
  "This server names itself only by MCP_PUBLIC_URL, which is not set, or by a loopback Host " +
  "(localhost, 127.0.0.1, [::1]); the request's Host is neither: set MCP_PUBLIC_URL to the origin clients use."

/**
 * A metadata document (`documentOf` the trusted origin), cacheable for an hour; `Vary: Origin`
 * because CORS headers depend on it. A request whose Host is not trusted gets a 400 naming
 * MCP_PUBLIC_URL, never a document naming its Host.
 */
export const metadataResponse =
  (settings: { readonly publicUrl: string | null }, documentOf: (origin: string) => object) =>
  (request: HttpServerRequest.HttpServerRequest) => {
    const origin = originOf(settings, request)
    return Effect.succeed(
      origin === undefined
        ? HttpServerResponse.jsonUnsafe(
            { code: "bad_request", message: untrustedHost },
            { status: 400, headers: { "cache-control": "no-store", "x-content-type-options": "nosniff" } }
          )
        : HttpServerResponse.jsonUnsafe(documentOf(origin), {
            headers: { "cache-control": "public, max-age=3600", vary: "Origin", "x-content-type-options": "nosniff" }
          })
    )
  }
