import { createServer } from "node:http"
import { Effect, Schema, type Scope } from "effect"

/**
 * An OpenTelemetry collector for tests: a node:http server on 127.0.0.1 that accepts OTLP/HTTP
 * JSON exports at POST /v1/traces and keeps the spans, flattened, for the test to read.
 */

/** One exported span, with the `service.name` of its resource and its attributes as plain values. */
export interface CollectedSpan {
  readonly service: string
  readonly traceId: string
  readonly spanId: string
  /** Empty when the span is a root. */
  readonly parentSpanId: string
  readonly name: string
  /** OTLP SpanKind: 1 internal, 2 server, 3 client. */
  readonly kind: number
  readonly attributes: Readonly<Record<string, string | number | boolean | null>>
}

export interface Collector {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly url: string
  /** Every span received so far. */
  readonly spans: Effect.Effect<ReadonlyArray<CollectedSpan>>
  /** What arrived that was not an OTLP JSON trace export (path, content type), for the test to refuse. */
  readonly rejected: Effect.Effect<ReadonlyArray<string>>
}

const AnyValue = Schema.Struct({
  stringValue: Schema.optional(Schema.NullOr(Schema.String)),
  intValue: Schema.optional(Schema.NullOr(Schema.Union([Schema.String, Schema.Number]))),
  doubleValue: Schema.optional(Schema.NullOr(Schema.Number)),
  boolValue: Schema.optional(Schema.NullOr(Schema.Boolean))
})
const KeyValue = Schema.Struct({ key: Schema.String, value: AnyValue })
const Span = Schema.Struct({
  traceId: Schema.String,
  spanId: Schema.String,
  parentSpanId: Schema.optional(Schema.String),
  name: Schema.String,
  kind: Schema.Number,
  attributes: Schema.Array(KeyValue)
})
const TraceExport = Schema.Struct({
  resourceSpans: Schema.Array(
    Schema.Struct({
      resource: Schema.Struct({ attributes: Schema.Array(KeyValue) }),
      scopeSpans: Schema.Array(Schema.Struct({ spans: Schema.Array(Span) }))
    })
  )
})
const decodeExport = Schema.decodeUnknownOption(Schema.fromJsonString(TraceExport))

const plain = (value: typeof AnyValue.Type): string | number | boolean | null => {
  if (typeof value.stringValue === "string") return value.stringValue
  if (value.intValue !== undefined && value.intValue !== null) return Number(value.intValue)
  if (typeof value.doubleValue === "number") return value.doubleValue
  if (typeof value.boolValue === "boolean") return value.boolValue
  return null
}

const record = (attributes: ReadonlyArray<typeof KeyValue.Type>) =>
  Object.fromEntries(attributes.map((attribute) => [attribute.key, plain(attribute.value)]))

const flatten = (data: typeof TraceExport.Type): Array<CollectedSpan> =>
  data.resourceSpans.flatMap((resourceSpan) => {
    const service = String(record(resourceSpan.resource.attributes)["service.name"] ?? "")
    return resourceSpan.scopeSpans.flatMap((scope) =>
      scope.spans.map((span) => ({
        service,
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? "",
        name: span.name,
        kind: span.kind,
        attributes: record(span.attributes)
      }))
    )
  })

/** A collector on a free port until the scope closes. */
export const startCollector: Effect.Effect<Collector, never, Scope.Scope> = Effect.gen(function* () {
  const spans: Array<CollectedSpan> = []
  const rejected: Array<string> = []
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const exported =
        request.method === "POST" &&
        request.url === "/v1/traces" &&
        request.headers["content-type"] === "application/json"
          ? decodeExport(Buffer.concat(chunks).toString("utf8"))
          : undefined
      if (exported === undefined || exported._tag === "None") {
        rejected.push(`${request.method} ${request.url} ${request.headers["content-type"]}`)
        response.writeHead(400).end()
        return
      }
      spans.push(...flatten(exported.value))
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  const port = yield* Effect.acquireRelease(
    Effect.callback<number>((resume) => {
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0))
      })
    }),
    () =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )
  return {
    url: `http://127.0.0.1:${port}`,
    spans: Effect.sync(() => [...spans]),
    rejected: Effect.sync(() => [...rejected])
  }
})

/** The spans of one trace, and how to walk up from a span to its ancestors. */
export const ancestorsOf = (spans: ReadonlyArray<CollectedSpan>, span: CollectedSpan): ReadonlyArray<CollectedSpan> => {
  const byId = new Map(spans.map((each) => [each.spanId, each]))
  const chain: Array<CollectedSpan> = []
  let parent = byId.get(span.parentSpanId)
  while (parent !== undefined && chain.length < spans.length) {
    chain.push(parent)
    parent = byId.get(parent.parentSpanId)
  }
  return chain
}
