import { assert } from "@effect/vitest"
import type { Scope } from "@margin/core/access/Scope"
import type { User } from "@margin/core/access/User"
import type { Workspace } from "@margin/core/workspaces/Workspace"
import * as McpTestServer from "@margin/runtime/testing/McpTestServer"
import * as OAuthConsent from "@margin/runtime/testing/OAuthConsent"
import { Effect } from "effect"
import { type RawReply, request } from "./RawMcp.ts"

export const verifier = OAuthConsent.pkce.verifier
export const redirectUri = "http://127.0.0.1:33418/callback"

/** The path of an authorization request of `clientId` for `resource` (scope runs:read, PKCE S256). */
export const authorizePath = (clientId: string, resource: string) =>
  `/oauth/authorize?${new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: OAuthConsent.pkce.challenge,
    code_challenge_method: "S256",
    scope: "runs:read",
    state: "s1",
    resource
  })}`

/** POST of an `application/x-www-form-urlencoded` body. */
export const postForm = (path: string, form: Readonly<Record<string, string>>, headers: Record<string, string> = {}) =>
  request("POST", path, {
    bytes: new TextEncoder().encode(new URLSearchParams(form).toString()),
    contentType: "application/x-www-form-urlencoded",
    headers
  })

export const jsonField = (reply: RawReply, field: string): unknown => Reflect.get(Object(reply.json), field)

export const stringField = (reply: RawReply, field: string): string => {
  const value = jsonField(reply, field)
  return typeof value === "string" ? value : assert.fail(`no ${field} in ${reply.status} ${reply.text}`)
}

/** Registers a public client over HTTP (RFC 7591) and answers its id. */
export const registerClient = Effect.gen(function* () {
  const reply = yield* request("POST", "/oauth/register", {
    body: { client_name: "Test Agent", redirect_uris: [redirectUri], token_endpoint_auth_method: "none" }
  })
  return stringField(reply, "client_id")
})

/** A code for `user` in `workspace` (the consent page's outcome), for this test server's /mcp. */
export const consentCode = (clientId: string, user: User, workspace: Workspace, scopes: ReadonlyArray<Scope>) =>
  Effect.gen(function* () {
    const resource = `${yield* McpTestServer.origin}/mcp`
    const code = yield* OAuthConsent.consentCode({ clientId, redirectUri, resource, user, workspace, scopes })
    return { code, resource }
  })

/** The token endpoint's answer to a code. */
export const redeem = (clientId: string, code: string, resource: string, overrides: Record<string, string> = {}) =>
  postForm("/oauth/token", {
    grant_type: "authorization_code",
    client_id: clientId,
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
    resource,
    ...overrides
  })
