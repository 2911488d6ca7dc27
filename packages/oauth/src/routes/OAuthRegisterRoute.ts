import { RateBudget } from "@margin/core/access/RateBudget"
import { TokenEndpointAuthMethod } from "@margin/core/oauth/OAuthClient"
import { OAuthRefused } from "@margin/core/oauth/OAuthErrors"
import { OAuthServer } from "@margin/core/oauth/OAuthServer"
import { unsafeCharacterIn } from "@margin/core/oauth/OAuthText"
import { failureResponse, RateLimited } from "@margin/edge/wire"
import { Clock, Effect, Option, Schema } from "effect"
import { HttpRouter, type HttpServerRequest } from "effect/http"
import { oauthPaths } from "./AuthorizationServerMetadata.ts"
import { loggedFailure, oauthFailure, oauthJson } from "./OAuthResponses.ts"

/** No control, separator or bidi character (`unsafeCharacterIn`): a name a page shows, a URI a header carries. */
const isPlainText = Schema.makeFilter((text: string) => {
  const unsafe = unsafeCharacterIn(text)
  return unsafe === undefined ? true : `holds a character that is not allowed (${unsafe})`
})

/** A list of metadata values, bounded: registration is open to anyone. */
const valueList = Schema.Array(Schema.String.check(Schema.isMaxLength(200))).check(Schema.isMaxLength(20))

/**
 * What a client may register (RFC 7591 section 2), bounded: a registration is kept until it expires unused.
 * `grant_types` and `response_types` may name values this server does not offer (older VS Code
 * builds list the device code grant): RFC 7591 section 2 lets the server replace requested values,
 * so those are dropped and the answer names what the client gets. A list lacking
 * `authorization_code` (or `code`) asks for nothing this server offers and is refused.
 */
const RegistrationRequest = Schema.Struct({
  redirect_uris: Schema.Array(Schema.String.check(Schema.isMaxLength(2_000), isPlainText)).check(
    Schema.isMinLength(1),
    Schema.isMaxLength(10)
  ),
  client_name: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200), isPlainText)),
  token_endpoint_auth_method: Schema.optionalKey(TokenEndpointAuthMethod),
  grant_types: Schema.optionalKey(
    valueList.check(
      Schema.makeFilter((values) => values.includes("authorization_code"), {
        expected: "a list naming authorization_code (the only grant this server issues tokens by, with refresh_token)"
      })
    )
  ),
  response_types: Schema.optionalKey(
    valueList.check(
      Schema.makeFilter((values) => values.includes("code"), {
        expected: "a list naming code (the only response type this server offers)"
      })
    )
  )
})

const decodeRegistration = Schema.decodeUnknownEffect(Schema.fromJsonString(RegistrationRequest))

/**
 * Dynamic client registration (RFC 7591). Open to anyone, so counted on the rate budget per
 * remote address (`oauth-register:<address>`, the configured limit per minute).
 */
export const layer = HttpRouter.addAll(
  Effect.gen(function* () {
    const server = yield* OAuthServer
    const budget = yield* RateBudget
    return [
      HttpRouter.route("POST", oauthPaths.register, (request: HttpServerRequest.HttpServerRequest) =>
        Effect.gen(function* () {
          const address = Option.getOrElse(request.remoteAddress, () => "unknown")
          const decision = yield* budget.consume(`oauth-register:${address}`, yield* Clock.currentTimeMillis)
          if (decision._tag === "Limited") {
            const { status, headers, body } = failureResponse(
              new RateLimited({ retryAfterSeconds: decision.retryAfterSeconds })
            )
            return oauthJson(status, body, headers)
          }
          const text = yield* Effect.orElseSucceed(request.text, () => "")
          const registration = yield* Effect.result(decodeRegistration(text))
          if (registration._tag === "Failure") {
            return yield* loggedFailure(
              new OAuthRefused({
                error: "invalid_client_metadata",
                description: `The registration is not valid: ${registration.failure.message}`
              })
            )
          }
          const input = registration.success
          const registered = yield* Effect.result(
            server.register({
              name: input.client_name ?? "Unnamed client",
              redirectUris: input.redirect_uris,
              tokenEndpointAuthMethod: input.token_endpoint_auth_method ?? "none"
            })
          )
          if (registered._tag === "Failure") {
            return registered.failure._tag === "RepositoryError"
              ? yield* loggedFailure(registered.failure)
              : oauthFailure(registered.failure)
          }
          const { client, secret } = registered.success
          return oauthJson(201, {
            client_id: client.id,
            ...(secret === null ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
            client_id_issued_at: Math.floor(client.createdAt / 1000),
            client_name: client.name,
            redirect_uris: client.redirectUris,
            token_endpoint_auth_method: client.tokenEndpointAuthMethod,
            grant_types: ["authorization_code", "refresh_token"],
            response_types: ["code"]
          })
        })
      )
    ]
  })
)
