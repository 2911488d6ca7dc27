import { createServer } from "node:http"
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Exit, Layer, Option, Tracer } from "effect"
import * as Tracing from "./Tracing.ts"
import { type TracingSettings, tracingConfig } from "./TracingConfig.ts"

const read = (env: Record<string, string>) =>
  Effect.exit(tracingConfig("margin-test").parse(ConfigProvider.fromEnv({ env })))

const settingsOf = (env: Record<string, string>) =>
  Effect.map(read(env), (exit): TracingSettings => {
    assert.isTrue(Exit.isSuccess(exit), `expected settings, got ${String(exit)}`)
    const settings = Exit.isSuccess(exit) ? exit.value : Option.none()
    assert.isTrue(Option.isSome(settings), "tracing is on")
    return Option.getOrThrow(settings)
  })

const off = (env: Record<string, string>) =>
  Effect.map(read(env), (exit) => {
    assert.isTrue(
      Exit.isSuccess(exit) && Option.isNone(exit.value),
      `tracing should be off with ${JSON.stringify(env)}`
    )
  })

describe("TracingConfig", () => {
  it.effect("off unless an OTLP endpoint is set, or when disabled", () =>
    Effect.gen(function* () {
      yield* off({})
      yield* off({ OTEL_EXPORTER_OTLP_ENDPOINT: "" })
      yield* off({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" })
      yield* off({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_TRACES_EXPORTER: "none" })
      // Variables of a tracing that is off are not even read.
      yield* off({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })
    })
  )

  it.effect("the OpenTelemetry defaults: /v1/traces below the endpoint, protobuf, every trace", () =>
    Effect.gen(function* () {
      const settings = yield* settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })
      assert.deepStrictEqual(settings, {
        url: "http://collector:4318/v1/traces",
        protocol: "http/protobuf",
        headers: {},
        serviceName: "margin-test",
        compression: "none",
        exportTimeout: Duration.seconds(10),
        exportInterval: Duration.seconds(5),
        maxBatchSize: 512,
        ratio: 1
      })
      const below = yield* settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://vendor.example/otlp/" })
      assert.strictEqual(below.url, "https://vendor.example/otlp/v1/traces")
      const exact = yield* settingsOf({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://traces:9999/custom"
      })
      assert.strictEqual(exact.url, "http://traces:9999/custom")
    })
  )

  it.effect("headers (percent-decoded), protocol, service name, batching and sampling from the environment", () =>
    Effect.gen(function* () {
      const settings = yield* settingsOf({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=s%20cret, tenant=margin",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "margin-eu",
        OTEL_EXPORTER_OTLP_TIMEOUT: "2000",
        OTEL_BSP_SCHEDULE_DELAY: "250",
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "100",
        OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
        OTEL_TRACES_SAMPLER_ARG: "0.25"
      })
      assert.deepStrictEqual(settings.headers, { "x-api-key": "s cret", tenant: "margin" })
      assert.strictEqual(settings.protocol, "http/json")
      assert.strictEqual(settings.serviceName, "margin-eu")
      assert.deepStrictEqual(settings.exportTimeout, Duration.millis(2000))
      assert.deepStrictEqual(settings.exportInterval, Duration.millis(250))
      assert.strictEqual(settings.maxBatchSize, 100)
      assert.strictEqual(settings.ratio, 0.25)
      const named = yield* settingsOf({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_RESOURCE_ATTRIBUTES: "service.name=from-resource,deployment.environment=prod"
      })
      assert.strictEqual(named.serviceName, undefined, "OTEL_RESOURCE_ATTRIBUTES names the service")
    })
  )

  it.effect("a bad value is a configuration error naming the variable", () =>
    Effect.gen(function* () {
      for (const [name, value] of [
        ["OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"],
        ["OTEL_TRACES_SAMPLER_ARG", "1.5"],
        ["OTEL_BSP_SCHEDULE_DELAY", "soon"]
      ] as const) {
        const exit = yield* read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", [name]: value })
        assert.isTrue(Exit.isFailure(exit), `${name}=${value} is refused`)
        assert.include(String(exit), name)
      }
      const exit = yield* read({ OTEL_EXPORTER_OTLP_ENDPOINT: "not a url" })
      assert.isTrue(Exit.isFailure(exit))
    })
  )
})

/** Whether the span made by withSpan(kind) under a remote `parent` (if any) is sampled, with the tracer `sampled(native, ratio)`. */
const sampledFlag = (ratio: number, kind: Tracer.SpanKind, parent?: { readonly sampled: boolean }) => {
  const inner = Effect.flatMap(Effect.currentSpan, (span) => Effect.succeed(span.sampled)).pipe(
    Effect.withSpan("inner", { kind })
  )
  // The parent as it arrives in a `traceparent` header: its decision was taken upstream.
  const traced =
    parent === undefined
      ? inner
      : Effect.withParentSpan(
          inner,
          Tracer.externalSpan({
            traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
            spanId: "00f067aa0ba902b7",
            sampled: parent.sampled
          })
        )
  return traced.pipe(Effect.withTracer(Tracing.sampled(Tracer.nativeTracer, ratio)), Effect.orDie)
}

describe("Tracing.sampled", () => {
  it.effect("a new trace is recorded at the ratio; a span follows its parent", () =>
    Effect.gen(function* () {
      assert.isTrue(yield* sampledFlag(1, "internal"))
      assert.isTrue(yield* sampledFlag(1, "server"))
      assert.isFalse(yield* sampledFlag(0, "server"))
      assert.isTrue(yield* sampledFlag(0, "client", { sampled: true }), "a child follows its recorded parent")
      assert.isFalse(yield* sampledFlag(1, "internal", { sampled: false }), "and its unrecorded one")
    })
  )

  it.effect("a client span without a parent (an idle poll's SQL statement) starts no trace", () =>
    Effect.gen(function* () {
      assert.isFalse(yield* sampledFlag(1, "client"))
      assert.isTrue(yield* sampledFlag(1, "client", { sampled: true }))
    })
  )
})

interface Received {
  readonly path: string | undefined
  readonly contentType: string | undefined
  readonly apiKey: string | undefined
  readonly bytes: number
}

/** A local endpoint that records what is posted to it, until the scope closes. */
const receiver = Effect.acquireRelease(
  Effect.callback<{ readonly url: string; readonly received: Array<Received>; readonly close: () => void }>(
    (resume) => {
      const received: Array<Received> = []
      const server = createServer((request, response) => {
        let bytes = 0
        request.on("data", (chunk: Buffer) => {
          bytes += chunk.length
        })
        request.on("end", () => {
          const apiKey = request.headers["x-api-key"]
          received.push({
            path: request.url,
            contentType: request.headers["content-type"],
            apiKey: typeof apiKey === "string" ? apiKey : undefined,
            bytes
          })
          response.writeHead(200).end()
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        resume(Effect.succeed({ url: `http://127.0.0.1:${port}`, received, close: () => server.close() }))
      })
    }
  ),
  (endpoint) => Effect.sync(() => endpoint.close())
)

const withEnv = (env: Record<string, string>) => ConfigProvider.layer(ConfigProvider.fromEnv({ env }))

describe("Tracing.layer", () => {
  it.live("unset: no exporter, Effect's own tracer", () =>
    Effect.gen(function* () {
      const tracer = yield* Effect.tracer.pipe(
        Effect.provide(Tracing.layer({ serviceName: "margin-test" }).pipe(Layer.provide(withEnv({}))))
      )
      assert.strictEqual(tracer, Tracer.nativeTracer)
    })
  )

  it.live("set: spans are posted as protobuf (the default) with the configured headers, flushed at shutdown", () =>
    Effect.gen(function* () {
      const endpoint = yield* receiver
      const tracing = Tracing.layer({ serviceName: "margin-test" }).pipe(
        Layer.provide(
          withEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint.url, OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=k1" })
        )
      )
      // The layer's scope closes after the span: the exporter flushes what it holds.
      const tracer = yield* Effect.scoped(
        Effect.gen(function* () {
          yield* Effect.void.pipe(Effect.withSpan("Test.work"))
          return yield* Effect.tracer
        }).pipe(Effect.provide(tracing))
      )
      assert.notStrictEqual(tracer, Tracer.nativeTracer)
      assert.strictEqual(endpoint.received.length, 1)
      const [posted] = endpoint.received
      assert.strictEqual(posted?.path, "/v1/traces")
      assert.strictEqual(posted?.contentType, "application/x-protobuf")
      assert.strictEqual(posted?.apiKey, "k1")
      assert.isAbove(posted?.bytes ?? 0, 0)
    }).pipe(Effect.scoped)
  )
})
