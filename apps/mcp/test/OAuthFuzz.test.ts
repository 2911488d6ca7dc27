import { assert, layer } from "@effect/vitest"
import * as McpTestServer from "@margin/runtime/testing/McpTestServer"
import { Effect, Option, Schema } from "effect"
import type { HttpServer } from "effect/http"
import { redirectUri, registerClient } from "./OAuthFlow.ts"
import { rawHttp } from "./RawHttp.ts"

/** NUL, CR, LF, CR LF, DEL, a C1 control, the line and paragraph separators, and bidi controls. */
const hostile = ["\u0000", "\r", "\n", "\r\n", "\u007f", "\u0085", "\u2028", "\u2029", "\u202e", "\u200f", "\u2066"]

const form = "application/x-www-form-urlencoded"

/** A parameter's value with `char` inside ordinary text. */
const tainted = (value: string, char: string) => `${value.slice(0, 3)}${char}${value.slice(3)}`

interface Case {
  readonly name: string
  readonly send: (
    char: string
  ) => Effect.Effect<
    { readonly status: number; readonly text: string; readonly json: unknown },
    never,
    HttpServer.HttpServer
  >
  /** The OAuth error code a JSON endpoint answers; undefined for the HTML pages (400 page). */
  readonly error: string | undefined
}

const parseJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))

const replyOf = (reply: { readonly status: number; readonly text: string }) => ({
  status: reply.status,
  text: reply.text,
  json: Option.getOrUndefined(parseJson(reply.text))
})

layer(McpTestServer.layer())("fuzz: hostile characters in every OAuth and sign-in parameter", (it) => {
  it.effect(
    "NUL, CR/LF, separators and bidi controls anywhere: 400 (invalid_request), never 5xx or a split header",
    () =>
      Effect.gen(function* () {
        const origin = yield* McpTestServer.origin
        const host = new URL(origin).host
        const clientId = yield* registerClient
        const base = {
          token: {
            grant_type: "authorization_code",
            client_id: clientId,
            code: "mac_0123456789",
            redirect_uri: redirectUri,
            code_verifier: "v".repeat(43),
            resource: `${origin}/mcp`,
            refresh_token: "mrt_0123456789",
            scope: "runs:read",
            client_secret: "mcs_0123456789"
          },
          revoke: { client_id: clientId, token: "mat_0123456789", token_type_hint: "access_token" },
          authorize: {
            response_type: "code",
            client_id: clientId,
            redirect_uri: redirectUri,
            state: "state-1",
            scope: "runs:read",
            code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            code_challenge_method: "S256",
            resource: `${origin}/mcp`
          },
          decide: { workspace_id: "ws_0123456789", csrf: "x".repeat(43), decision: "allow", grant_scope: "runs:read" },
          login: { email: "someone@example.com", return_to: "/oauth/authorize?client_id=x", csrf: "x".repeat(43) },
          link: { token: "abc.123.def", return_to: "/oauth/authorize?client_id=x", csrf: "x".repeat(43) }
        }
        const withOne = (fields: Readonly<Record<string, string>>, name: string, char: string) =>
          new URLSearchParams({ ...fields, [name]: tainted(fields[name] ?? "", char) }).toString()
        const http = (method: "GET" | "POST", path: string, body?: string, headers: Record<string, string> = {}) =>
          Effect.map(
            rawHttp({
              method,
              path,
              headers: { host, ...(body === undefined ? {} : { "content-type": form }), ...headers },
              ...(body === undefined ? {} : { body })
            }),
            replyOf
          )
        const cases: Array<Case> = []
        for (const name of Object.keys(base.token)) {
          cases.push({
            name: `token ${name}`,
            send: (char) => http("POST", "/oauth/token", withOne(base.token, name, char)),
            error: "invalid_request"
          })
        }
        cases.push({
          name: "token Basic client_id",
          send: (char) =>
            http(
              "POST",
              "/oauth/token",
              new URLSearchParams({ grant_type: "refresh_token", refresh_token: "mrt_x" }).toString(),
              {
                authorization: `Basic ${Buffer.from(`${encodeURIComponent(tainted(clientId, char))}:secret`).toString("base64")}`
              }
            ),
          error: "invalid_request"
        })
        for (const name of Object.keys(base.revoke)) {
          cases.push({
            name: `revoke ${name}`,
            send: (char) => http("POST", "/oauth/revoke", withOne(base.revoke, name, char)),
            error: "invalid_request"
          })
        }
        for (const field of ["client_name", "redirect_uris"] as const) {
          cases.push({
            name: `register ${field}`,
            send: (char) =>
              Effect.map(
                rawHttp({
                  method: "POST",
                  path: "/oauth/register",
                  headers: { host, "content-type": "application/json" },
                  body: JSON.stringify({
                    client_name: field === "client_name" ? tainted("Agent name", char) : "Agent",
                    redirect_uris: [field === "redirect_uris" ? tainted(redirectUri, char) : redirectUri]
                  })
                }),
                replyOf
              ),
            error: "invalid_client_metadata"
          })
        }
        for (const name of Object.keys(base.authorize)) {
          cases.push({
            name: `authorize (GET) ${name}`,
            send: (char) => http("GET", `/oauth/authorize?${withOne(base.authorize, name, char)}`),
            error: undefined
          })
        }
        const decideForm = { ...base.authorize, ...base.decide }
        for (const name of Object.keys(decideForm)) {
          cases.push({
            name: `consent (POST) ${name}`,
            send: (char) => http("POST", "/oauth/authorize", withOne(decideForm, name, char)),
            error: undefined
          })
        }
        for (const name of Object.keys(base.login)) {
          cases.push({
            name: `sign-in ${name}`,
            send: (char) => http("POST", "/oauth/login", withOne(base.login, name, char)),
            error: undefined
          })
        }
        for (const name of ["token", "return_to"]) {
          cases.push({
            name: `link (GET) ${name}`,
            send: (char) => http("GET", `/oauth/login/link?${withOne(base.link, name, char)}`),
            error: undefined
          })
        }
        for (const name of Object.keys(base.link)) {
          cases.push({
            name: `link (POST) ${name}`,
            send: (char) => http("POST", "/oauth/login/link", withOne(base.link, name, char)),
            error: undefined
          })
        }

        let checked = 0
        for (const entry of cases) {
          for (const char of hostile) {
            const reply = yield* entry.send(char)
            const what = `${entry.name} with U+${(char.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`
            assert.strictEqual(reply.status, 400, `${what}: ${reply.status} ${reply.text}`)
            if (entry.error !== undefined) {
              assert.strictEqual(Reflect.get(Object(reply.json), "error"), entry.error, `${what}: ${reply.text}`)
            } else {
              assert.include(reply.text, "not allowed", `${what}: ${reply.text}`)
            }
            checked++
          }
        }
        assert.strictEqual(checked, 43 * hostile.length)
      })
  )
})
