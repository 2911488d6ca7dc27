import { type LookupAddress, lookup } from "node:dns"
import { request as httpRequest, type IncomingMessage } from "node:http"
import { request as httpsRequest } from "node:https"
import { isIP, type LookupFunction } from "node:net"
import {
  type ClientMetadataDocument,
  ClientMetadataDocuments,
  ClientMetadataUnavailable
} from "@margin/core/oauth/ClientMetadataDocuments"
import { Config, Effect, Layer, Option, Schema } from "effect"
import { addressAllowed } from "./AddressPolicy.ts"
import { cached, maxAgeOf } from "./CachedClientMetadataDocuments.ts"

/** A client's metadata is a few hundred bytes; the spec suggests 5 KB at most. */
export const maxDocumentBytes = 5 * 1024
/** The whole fetch, connection included: an authorization request waits for it. */
export const fetchTimeoutMs = 5_000

const loopbackNames: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"])

/**
 * Resolves like dns.lookup, then refuses any address the policy forbids: the check is on the
 * address the socket actually connects to, so a name that resolves (or re-resolves, DNS
 * rebinding) to a private address is refused too.
 */
const guardedLookup =
  (allowLoopback: boolean): LookupFunction =>
  (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses: ReadonlyArray<LookupAddress>) => {
      if (error !== null) return callback(error, "", 0)
      const refused = addresses.find((entry) => !addressAllowed(entry.address, allowLoopback))
      const first = addresses[0]
      if (refused !== undefined || first === undefined) {
        return callback(
          Object.assign(new Error(`address not allowed: ${refused?.address ?? "none"}`), { code: "EADDRNOTALLOWED" }),
          "",
          0
        )
      }
      if (options.all === true) return (callback as (e: null, a: ReadonlyArray<LookupAddress>) => void)(null, addresses)
      return callback(null, first.address, first.family)
    })
  }

const parseJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))

const unavailable = (url: string, reason: string) => new ClientMetadataUnavailable({ url, reason })

/** The fields of a parsed document, untyped: the authorization server validates them. */
const documentOf = (json: unknown, maxAgeSeconds: number): ClientMetadataDocument | undefined =>
  typeof json === "object" && json !== null && !Array.isArray(json)
    ? {
        clientId: Reflect.get(json, "client_id"),
        clientName: Reflect.get(json, "client_name"),
        redirectUris: Reflect.get(json, "redirect_uris"),
        tokenEndpointAuthMethod: Reflect.get(json, "token_endpoint_auth_method"),
        maxAgeSeconds
      }
    : undefined

/**
 * Fetches client ID metadata documents over https (and http to loopback when `allowLoopback`,
 * for development): no redirect followed, at most `maxDocumentBytes`, within `fetchTimeoutMs`,
 * never from a private, loopback or link-local address (an IP literal is judged before any
 * connection, a name on the address it resolves to).
 */
export const make = (options: { readonly allowLoopback: boolean }) =>
  ClientMetadataDocuments.of({
    fetch: (url) =>
      Effect.callback<ClientMetadataDocument, ClientMetadataUnavailable>((resume, signal) => {
        const fail = (reason: string) => resume(Effect.fail(unavailable(url, reason)))
        if (!URL.canParse(url)) return fail("not a URL")
        const target = new URL(url)
        const loopbackHttp = options.allowLoopback && target.protocol === "http:" && loopbackNames.has(target.hostname)
        if (target.protocol !== "https:" && !loopbackHttp) return fail("not an https URL")
        const literal = target.hostname.replace(/^\[|\]$/g, "")
        if (isIP(literal) !== 0 && !addressAllowed(literal, options.allowLoopback)) {
          return fail(`address not allowed: ${literal}`)
        }
        const send = target.protocol === "https:" ? httpsRequest : httpRequest
        const outgoing = send(target, {
          method: "GET",
          headers: { accept: "application/json" },
          lookup: guardedLookup(options.allowLoopback),
          timeout: fetchTimeoutMs,
          signal
        })
        const deadline = setTimeout(() => outgoing.destroy(new Error("timed out")), fetchTimeoutMs)
        const settle = (effect: Effect.Effect<ClientMetadataDocument, ClientMetadataUnavailable>) => {
          clearTimeout(deadline)
          resume(effect)
        }
        outgoing.on("timeout", () => outgoing.destroy(new Error("timed out")))
        outgoing.on("error", (error) => settle(Effect.fail(unavailable(url, error.message))))
        outgoing.on("response", (response: IncomingMessage) => {
          if (response.statusCode !== 200) {
            response.resume()
            outgoing.destroy()
            return settle(Effect.fail(unavailable(url, `answered ${response.statusCode} (redirects are not followed)`)))
          }
          const chunks: Array<Buffer> = []
          let size = 0
          response.on("data", (chunk: Buffer) => {
            size += chunk.length
            if (size > maxDocumentBytes) {
              outgoing.destroy()
              return settle(Effect.fail(unavailable(url, `larger than ${maxDocumentBytes} bytes`)))
            }
            chunks.push(chunk)
          })
          response.on("end", () => {
            if (size > maxDocumentBytes) return
            const text = Buffer.concat(chunks).toString("utf8")
            const document = documentOf(
              Option.getOrUndefined(parseJson(text)),
              maxAgeOf(response.headers["cache-control"])
            )
            settle(
              document === undefined ? Effect.fail(unavailable(url, "not a JSON object")) : Effect.succeed(document)
            )
          })
        })
        outgoing.end()
        return Effect.sync(() => {
          clearTimeout(deadline)
          outgoing.destroy()
        })
      })
  })

/**
 * OAUTH_CIMD_ALLOW_LOOPBACK (default false): development only, to serve documents from this
 * machine. Behind the cache and fetch budget of `CachedClientMetadataDocuments`.
 */
export const layer = Layer.effect(
  ClientMetadataDocuments,
  Effect.flatMap(Config.Boolean("OAUTH_CIMD_ALLOW_LOOPBACK").pipe(Config.withDefault(false)), (allowLoopback) =>
    cached(make({ allowLoopback }))
  )
)
