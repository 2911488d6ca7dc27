import { pathOf } from "@margin/edge/telemetry"
import { Duration, Effect, Layer, Option, References, Tracer } from "effect"
import { FetchHttpClient, HttpClient, HttpClientError, HttpMiddleware, type HttpServerRequest } from "effect/http"
import { OtlpExporter, OtlpSerialization, OtlpTracer } from "effect/observability"
import { type TracingSettings, tracingConfig } from "./TracingConfig.ts"

export interface TracingOptions {
  /** `service.name` unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES says otherwise. */
  readonly serviceName: string
  /** The name of a request's server span (default: its method; the router adds `http.route`). */
  readonly spanName?: (request: HttpServerRequest.HttpServerRequest) => string
}

/** Requests that start no trace: probes and scrapes, every few seconds, say nothing about users. */
const untracedPaths = new Set(["/healthz", "/readyz", "/metrics"])

/**
 * Effect's OTLP tracer with the sampling decision of a new trace: a share `ratio` of root spans is
 * recorded and every other span follows its parent. A client span without a parent (a SQL
 * statement of an idle poll or a health check, outside any request, use case or job) starts no
 * trace, so that an idle process exports nothing.
 */
export const sampled = (tracer: Tracer.Tracer, ratio: number): Tracer.Tracer =>
  Tracer.make({
    span(options) {
      if (Option.isSome(options.parent) || !options.sampled) return tracer.span(options)
      const keep = options.kind !== "client" && (ratio >= 1 || Math.random() < ratio)
      return tracer.span(keep ? options : { ...options, sampled: false })
    },
    context: tracer.context
  })

/** The collector's address for log lines: no credentials, no query. */
const describe = (url: string): string => {
  const parsed = new URL(url)
  return `${parsed.origin}${parsed.pathname}`
}

/**
 * The exporter's HTTP client: an export that gets no answer within `timeout` fails (Effect's
 * exporter has no deadline of its own); the first failure of an outage is logged once, as is
 * the recovery. Effect's exporter then drops the batch and pauses 60 seconds, so a collector
 * that is down never holds requests back and never fills the memory.
 */
const exporterClient = (settings: TracingSettings) =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.gen(function* () {
      const client = yield* HttpClient.HttpClient
      const target = describe(settings.url)
      let failing = false
      const failed = (why: string) =>
        Effect.suspend(() => {
          if (failing) return Effect.void
          failing = true
          return Effect.logWarning(
            `tracing: spans cannot be exported to ${target} (${why}); they are dropped until it answers`
          )
        })
      const answered = Effect.suspend(() => {
        if (!failing) return Effect.void
        failing = false
        return Effect.logInfo(`tracing: exporting spans to ${target} again`)
      })
      return HttpClient.transform(client, (response, request) =>
        response.pipe(
          Effect.timeoutOrElse({
            duration: settings.exportTimeout,
            orElse: () =>
              Effect.fail(
                new HttpClientError.HttpClientError({
                  reason: new HttpClientError.TransportError({
                    request,
                    description: `no answer within ${Duration.format(settings.exportTimeout)}`
                  })
                })
              )
          }),
          Effect.tap((answer) => (answer.status < 300 ? answered : failed(`HTTP ${answer.status}`))),
          Effect.tapError((error) => failed(error.message))
        )
      )
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))

const exporting = (settings: TracingSettings) =>
  Layer.effect(
    Tracer.Tracer,
    Effect.map(
      OtlpTracer.make({
        url: settings.url,
        resource: settings.serviceName === undefined ? {} : { serviceName: settings.serviceName },
        headers: settings.headers,
        compression: settings.compression,
        exportInterval: settings.exportInterval,
        maxBatchSize: settings.maxBatchSize
      }),
      (tracer) => sampled(tracer, settings.ratio)
    )
  ).pipe(
    Layer.provide([
      OtlpExporter.layerFlusher,
      settings.protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf,
      exporterClient(settings)
    ])
  )

/**
 * Traces over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set (TracingConfig): provide it to a
 * whole process. Spans: one per HTTP request (Effect's server tracing, named by `spanName`, with
 * `http.route`; /healthz, /readyz and /metrics untraced), the use cases' `Effect.fn` spans, one per
 * SQL statement (@effect/sql: `db.query.text` with placeholders, never the values), the jobs'.
 * Unset, tracing is off (References.TracerEnabled false): every span is Effect's no-op span, so a
 * request builds no span objects, reads no clock for them and exports nothing (bench:http).
 */
export const layer = (options: TracingOptions) =>
  Layer.unwrap(
    Effect.map(tracingConfig(options.serviceName), (settings) =>
      Option.match(settings, {
        onNone: () => Layer.succeed(References.TracerEnabled, false),
        onSome: (settings) =>
          Layer.mergeAll(
            exporting(settings),
            Layer.succeed(HttpMiddleware.TracerDisabledWhen, (request) => untracedPaths.has(pathOf(request.url))),
            options.spanName === undefined
              ? Layer.empty
              : Layer.succeed(HttpMiddleware.SpanNameGenerator, options.spanName)
          )
      })
    )
  )
