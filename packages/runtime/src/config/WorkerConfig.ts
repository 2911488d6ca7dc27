import { Config, Schema } from "effect"

/** The port of the worker's /metrics, /healthz and /readyz: the OpenTelemetry Prometheus exporter's. */
export const defaultMetricsPort = 9464

// 0 is allowed: no metrics server.
const MetricsPort = Schema.FiniteFromString.pipe(
  Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 65535 }))
)

/**
 * The worker's own settings, from the environment: WORKER_METRICS_PORT (default 9464; 0 serves
 * nothing) on HOST (default 127.0.0.1, as the REST server). The loops and the database read theirs.
 */
export const workerConfig = Config.all({
  metricsPort: Config.schema(MetricsPort, "WORKER_METRICS_PORT").pipe(Config.withDefault(defaultMetricsPort)),
  host: Config.NonEmptyString("HOST").pipe(Config.withDefault("127.0.0.1"))
})
