import { OAuthRefused } from "@margin/core/oauth/OAuthErrors"
import { OAuthServer } from "@margin/core/oauth/OAuthServer"
import { Effect } from "effect"
import { HttpRouter, type HttpServerRequest } from "effect/http"
import { oauthPaths } from "./AuthorizationServerMetadata.ts"
import { clientRequest } from "./OAuthClientRequest.ts"

const missing = (name: string) => new OAuthRefused({ error: "invalid_request", description: `${name} is required.` })

/**
 * The token endpoint (OAuth 2.1 section 3.2): `authorization_code` with PKCE and
 * `refresh_token` with rotation.
 */
export const layer = HttpRouter.addAll(
  Effect.map(OAuthServer, (server) => [
    HttpRouter.route("POST", oauthPaths.token, (request: HttpServerRequest.HttpServerRequest) =>
      clientRequest(request, (params, client) => {
        switch (params("grant_type")) {
          case "authorization_code": {
            const code = params("code")
            if (code === undefined) return Effect.fail(missing("code"))
            return server.exchangeCode({
              client,
              code,
              redirectUri: params("redirect_uri"),
              codeVerifier: params("code_verifier"),
              resource: params("resource")
            })
          }
          case "refresh_token": {
            const refreshToken = params("refresh_token")
            if (refreshToken === undefined) return Effect.fail(missing("refresh_token"))
            return server.refresh({ client, refreshToken, scope: params("scope"), resource: params("resource") })
          }
          default:
            return Effect.fail(
              new OAuthRefused({
                error: "unsupported_grant_type",
                description: "grant_type must be authorization_code or refresh_token."
              })
            )
        }
      })
    )
  ])
)
