import { randomBytes } from "node:crypto"
import { NodeHttpServer, NodeServices } from "@effect/platform-node"
import { assert } from "@effect/vitest"
import type { Deprecation } from "@margin/core/deprecation/Deprecation"
import * as MemoryAdapters from "@margin/core/memory/MemoryAdapters"
import * as MemoryIdentityKeyStore from "@margin/core/memory/MemoryIdentityKeyStore"
import { ScriptedStoreCatalog } from "@margin/core/testing/ScriptedStoreCatalog"
import * as ScriptedStoreConnectionCheck from "@margin/core/testing/ScriptedStoreConnectionCheck"
import { WriteBackOutbox } from "@margin/core/writeback/WriteBackOutbox"
import { SessionSigner, SessionVerifier } from "@margin/edge/auth"
import { serveLean } from "@margin/edge/serving"
import { Readiness } from "@margin/edge/telemetry"
import { DeprecatedOperations } from "@margin/edge/wire"
import { Effect, Layer, type LogLevel, Option, Redacted, References, Schema } from "effect"
import { HttpClient, HttpClientRequest, type HttpMethod, HttpServer } from "effect/http"
import { UseCasesLayer } from "../infrastructure/UseCases.ts"
import * as RestProcess from "../processes/RestProcess.ts"
import { recordReply } from "./RecordedReplies.ts"

export interface TestServerOptions {
  readonly rateLimit?: number
  readonly maxBodyBytes?: number
  /** PUBLIC_URL: the OpenAPI document's server. */
  readonly publicUrl?: string
  /** Services that replace memory adapters (a port that fails, for instance); they may use the memory ones. */
  readonly override?: Layer.Layer<never, never, MemoryAdapters.MemoryServices>
  /** The server's minimum log level (default Error, so tests stay quiet). */
  readonly minimumLogLevel?: LogLevel.LogLevel
  /** Deprecated operations in place of the production ones (which are none). */
  readonly deprecations?: ReadonlyArray<Deprecation>
}

/**
 * The whole REST front door on an ephemeral port over `ports`, with an `HttpClient` pointed at
 * it, the ports for seeding and a development session signer. Everything goes through real
 * HTTP, as a client would.
 */
export const layerOn = <ROut, E>(
  ports: Layer.Layer<ROut, E>,
  options: {
    readonly maxBodyBytes?: number
    readonly publicUrl?: string
    readonly readiness?: Layer.Layer<Readiness, never, NoInfer<ROut>>
    readonly minimumLogLevel?: LogLevel.LogLevel
    readonly deprecations?: ReadonlyArray<Deprecation>
  } = {}
) => {
  const identity = MemoryIdentityKeyStore.layer
  // The REST server's app, as RestProcess serves it: requests start on the services routes read while answering.
  return serveLean(
    RestProcess.app({
      ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
      ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
      // Sign-in by e-mail link on, whichever database the tests run on.
      oauthLogin: { emailLink: true, key: Redacted.make(randomBytes(32)) }
    }),
    [WriteBackOutbox],
    { disableListenLog: true }
  ).pipe(
    Layer.provideMerge(NodeHttpServer.layerTest),
    Layer.provide(options.readiness ?? Readiness.layerAlwaysReady),
    Layer.provideMerge(UseCasesLayer),
    // The store that syncs read: scripted by the tests (the servers read the platforms').
    Layer.provideMerge(ScriptedStoreCatalog.layer),
    Layer.provide(ScriptedStoreConnectionCheck.layer),
    Layer.provide(SessionVerifier.layer.pipe(Layer.provide([identity, NodeServices.layer]))),
    Layer.provideMerge(SessionSigner.layerDevelopment.pipe(Layer.provide(identity))),
    Layer.provideMerge(ports),
    Layer.provide(Layer.succeed(References.MinimumLogLevel, options.minimumLogLevel ?? "Error")),
    Layer.provide(
      options.deprecations === undefined ? Layer.empty : Layer.succeed(DeprecatedOperations, options.deprecations)
    ),
    Layer.orDie
  )
}

/** `layerOn` the in-memory adapters (with the memory database and fake store for seeding). */
export const layer = (options: TestServerOptions = {}) => {
  const memory = MemoryAdapters.layerWith({ rateLimit: options.rateLimit ?? 1_000_000 })
  return layerOn(options.override === undefined ? memory : options.override.pipe(Layer.provideMerge(memory)), {
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
    ...(options.minimumLogLevel === undefined ? {} : { minimumLogLevel: options.minimumLogLevel }),
    ...(options.deprecations === undefined ? {} : { deprecations: options.deprecations })
  })
}

export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  /** The body parsed as JSON; undefined when it is not JSON. */
  readonly json: unknown
}

export interface CallOptions {
  readonly token?: string
  readonly headers?: Readonly<Record<string, string>>
  /** A value is sent as JSON; a string is sent as is (with content-type application/json unless given). */
  readonly body?: unknown
}

const parseJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))

/** One raw HTTP exchange with the test server. */
export const call = (method: HttpMethod.HttpMethod, path: string, options: CallOptions = {}) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const headers: Record<string, string> = {
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
      ...options.headers
    }
    let request = HttpClientRequest.make(method)(path)
    if (options.body !== undefined) {
      const text = typeof options.body === "string" ? options.body : JSON.stringify(options.body)
      request = HttpClientRequest.bodyText(request, text, headers["content-type"] ?? "application/json")
    }
    request = HttpClientRequest.setHeaders(request, headers)
    const response = yield* client.execute(request).pipe(Effect.orDie)
    const text = yield* response.text.pipe(Effect.orDie)
    const reply: Reply = {
      status: response.status,
      headers: response.headers,
      text,
      json: Option.getOrUndefined(parseJson(text))
    }
    recordReply({ method, path, status: reply.status, headers: reply.headers, text })
    return reply
  })

/** The JSON body as a record (errors, lists, resources); anything else fails the test. */
export const bodyOf = (reply: Reply): Readonly<Record<string, unknown>> => {
  const body = reply.json
  assert.isTrue(
    typeof body === "object" && body !== null && !Array.isArray(body),
    `expected a JSON object, got ${reply.status} ${reply.text}`
  )
  return { ...Object(body) }
}

/** Asserts an error answer: the status, a JSON envelope with the code and a message; answers the body. */
export const expectError = (reply: Reply, status: number, code: string): Readonly<Record<string, unknown>> => {
  assert.strictEqual(reply.status, status, `expected ${status} ${code}, got ${reply.status} ${reply.text}`)
  assert.match(reply.headers["content-type"] ?? "", /^application\/json/)
  const envelope = bodyOf(reply)
  assert.strictEqual(envelope.code, code, reply.text)
  assert.isString(envelope.message)
  // Every error body names its request, as the x-request-id header does.
  assert.isString(envelope.request_id, reply.text)
  assert.strictEqual(envelope.request_id, reply.headers["x-request-id"])
  return envelope
}

/** The test server's origin, for clients other than `call` (fetch with a streamed body, fast-check). */
export const baseUrl = HttpServer.HttpServer.useSync((server) => {
  const address = server.address
  return `http://127.0.0.1:${"port" in address ? address.port : 0}`
})

/** A POST whose body is streamed with Transfer-Encoding: chunked, so no Content-Length announces its size. */
export const postChunked = (path: string, token: string, body: string, contentType = "application/json") =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.promise(async () => {
      const bytes = new TextEncoder().encode(body)
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes)
          controller.close()
        }
      })
      const init: RequestInit & { readonly duplex: "half" } = {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": contentType },
        body: stream,
        duplex: "half"
      }
      const response = await fetch(`${base}${path}`, init)
      const text = await response.text()
      const reply: Reply = {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        text,
        json: Option.getOrUndefined(parseJson(text))
      }
      recordReply({ method: "POST", path, status: reply.status, headers: reply.headers, text })
      return reply
    })
  )
