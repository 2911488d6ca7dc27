import { Config, Duration, Option, Schema } from "effect"

/**
 * Where and how a process exports its spans, from the standard OpenTelemetry variables. Tracing is
 * on when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, unless
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER leaves out `otlp` (`none`). An empty variable
 * counts as unset, as the OpenTelemetry specification says.
 */
export interface TracingSettings {
  /** The URL spans are posted to: the traces endpoint as given, else the base endpoint + `/v1/traces`. */
  readonly url: string
  /** OTLP/HTTP body: protobuf (the OpenTelemetry default) or JSON. gRPC is not offered. */
  readonly protocol: "http/protobuf" | "http/json"
  /** Sent with every export (a collector's API key): values never logged. */
  readonly headers: Readonly<Record<string, string>>
  /** `service.name`: OTEL_SERVICE_NAME, else undefined when OTEL_RESOURCE_ATTRIBUTES names it, else the process's own. */
  readonly serviceName: string | undefined
  readonly compression: "gzip" | "none"
  /** The longest one export may take before it counts as failed. */
  readonly exportTimeout: Duration.Duration
  /** Ended spans are sent in batches at this interval (or sooner when a batch is full). */
  readonly exportInterval: Duration.Duration
  readonly maxBatchSize: number
  /** Share of new traces recorded (parent-based: a span follows its parent's decision). */
  readonly ratio: number
}

/** A variable that is unset or empty reads as None. */
const optionalText = (name: string) =>
  Config.option(Config.String(name)).pipe(Config.map(Option.filter((value) => value.trim() !== "")))

const nonEmpty = <A>(name: string, config: Config.Config<A>): Config.Config<Option.Option<A>> =>
  Config.flatMap(optionalText(name), (text) =>
    Option.isNone(text) ? Config.succeed(Option.none()) : Config.option(config)
  )

const Milliseconds = Schema.FiniteFromString.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1)))
const Ratio = Schema.FiniteFromString.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 1 })))

const millis = (name: string) => nonEmpty(name, Config.schema(Milliseconds, name))

const protocols = ["http/protobuf", "http/json"] as const
const samplers = ["parentbased_always_on", "always_on", "parentbased_traceidratio", "traceidratio"] as const
const headerRecord = (name: string) =>
  nonEmpty(name, Config.Record(Schema.String, Schema.StringFromUriComponent, name, { trim: true }))

/** `<base>/v1/traces`, whether or not the base ends with a slash. */
const tracesUrl = (base: URL): string => {
  const url = new URL(base)
  url.pathname = `${url.pathname.endsWith("/") ? url.pathname : `${url.pathname}/`}v1/traces`
  return url.toString()
}

const first = <A>(...options: ReadonlyArray<Option.Option<A>>): Option.Option<A> => Option.firstSomeOf(options)

/** None when tracing is off; `defaultServiceName` names the process unless the environment does. */
export const tracingConfig = (defaultServiceName: string): Config.Config<Option.Option<TracingSettings>> =>
  Config.all({
    disabled: nonEmpty("OTEL_SDK_DISABLED", Config.Boolean("OTEL_SDK_DISABLED")),
    exporters: nonEmpty("OTEL_TRACES_EXPORTER", Config.Array(Schema.String, "OTEL_TRACES_EXPORTER")),
    tracesEndpoint: nonEmpty("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", Config.URL("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")),
    endpoint: nonEmpty("OTEL_EXPORTER_OTLP_ENDPOINT", Config.URL("OTEL_EXPORTER_OTLP_ENDPOINT"))
  }).pipe(
    Config.flatMap(({ disabled, exporters, tracesEndpoint, endpoint }) => {
      const url = first(tracesEndpoint.pipe(Option.map(String)), endpoint.pipe(Option.map(tracesUrl)))
      const otlp = Option.match(exporters, {
        onNone: () => true,
        onSome: (names) => names.some((name) => name.trim().toLowerCase() === "otlp")
      })
      if (Option.getOrElse(disabled, () => false) || !otlp || Option.isNone(url)) return Config.succeed(Option.none())
      return Config.all({
        tracesProtocol: nonEmpty(
          "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
          Config.Literals(protocols, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
        ),
        protocol: nonEmpty("OTEL_EXPORTER_OTLP_PROTOCOL", Config.Literals(protocols, "OTEL_EXPORTER_OTLP_PROTOCOL")),
        tracesHeaders: headerRecord("OTEL_EXPORTER_OTLP_TRACES_HEADERS"),
        headers: headerRecord("OTEL_EXPORTER_OTLP_HEADERS"),
        serviceName: optionalText("OTEL_SERVICE_NAME"),
        resource: nonEmpty(
          "OTEL_RESOURCE_ATTRIBUTES",
          Config.Record(Schema.String, Schema.String, "OTEL_RESOURCE_ATTRIBUTES", { trim: true, keepEmptyValues: true })
        ),
        tracesCompression: nonEmpty(
          "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION",
          Config.Literals(["gzip", "none"], "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION")
        ),
        compression: nonEmpty(
          "OTEL_EXPORTER_OTLP_COMPRESSION",
          Config.Literals(["gzip", "none"], "OTEL_EXPORTER_OTLP_COMPRESSION")
        ),
        tracesTimeout: millis("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT"),
        timeout: millis("OTEL_EXPORTER_OTLP_TIMEOUT"),
        scheduleDelay: millis("OTEL_BSP_SCHEDULE_DELAY"),
        maxBatchSize: millis("OTEL_BSP_MAX_EXPORT_BATCH_SIZE"),
        sampler: nonEmpty("OTEL_TRACES_SAMPLER", Config.Literals(samplers, "OTEL_TRACES_SAMPLER")),
        samplerArg: nonEmpty("OTEL_TRACES_SAMPLER_ARG", Config.schema(Ratio, "OTEL_TRACES_SAMPLER_ARG"))
      }).pipe(
        Config.map(
          (read): Option.Option<TracingSettings> =>
            Option.some({
              url: url.value,
              protocol: Option.getOrElse(first(read.tracesProtocol, read.protocol), () => "http/protobuf" as const),
              headers: Option.getOrElse(first(read.tracesHeaders, read.headers), () => ({})),
              serviceName: Option.isSome(read.serviceName)
                ? read.serviceName.value
                : Option.exists(read.resource, (attributes) => (attributes["service.name"] ?? "") !== "")
                  ? undefined
                  : defaultServiceName,
              compression: Option.getOrElse(first(read.tracesCompression, read.compression), () => "none" as const),
              exportTimeout: Duration.millis(Option.getOrElse(first(read.tracesTimeout, read.timeout), () => 10_000)),
              exportInterval: Duration.millis(Option.getOrElse(read.scheduleDelay, () => 5_000)),
              maxBatchSize: Option.getOrElse(read.maxBatchSize, () => 512),
              ratio: Option.exists(read.sampler, (sampler) => sampler.endsWith("traceidratio"))
                ? Option.getOrElse(read.samplerArg, () => 1)
                : 1
            })
        )
      )
    })
  )
