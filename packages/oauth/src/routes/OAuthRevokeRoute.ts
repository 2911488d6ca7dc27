import { OAuthRefused } from "@margin/core/oauth/OAuthErrors"
import { OAuthServer } from "@margin/core/oauth/OAuthServer"
import { Effect } from "effect"
import { HttpRouter, type HttpServerRequest } from "effect/http"
import { oauthPaths } from "./AuthorizationServerMetadata.ts"
import { clientRequest } from "./OAuthClientRequest.ts"

/**
 * RFC 7009 revocation: 200 whether or not the token was known (nothing is learned from it);
 * a refresh token ends its grant, an access token only itself.
 */
export const layer = HttpRouter.addAll(
  Effect.map(OAuthServer, (server) => [
    HttpRouter.route("POST", oauthPaths.revoke, (request: HttpServerRequest.HttpServerRequest) =>
      clientRequest(request, (params, client) => {
        const token = params("token")
        if (token === undefined) {
          return Effect.fail(new OAuthRefused({ error: "invalid_request", description: "token is required." }))
        }
        return Effect.as(server.revoke({ client, token }), {})
      })
    )
  ])
)
