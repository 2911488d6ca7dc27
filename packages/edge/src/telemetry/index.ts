/**
 * @margin/edge/telemetry: what every request leaves behind (its id, log line, metrics, path) and
 * the operator's routes (/metrics, /healthz, /readyz).
 */
export * as HealthRoutes from "./HealthRoutes.ts"
export * from "./LogAnnotations.ts"
export * as MetricsRoute from "./MetricsRoute.ts"
export * from "./ProcessMetrics.ts"
export * from "./Readiness.ts"
export * from "./RequestId.ts"
export * from "./RequestLog.ts"
export * from "./RequestMetrics.ts"
export * from "./RequestPath.ts"
export * as RequestTelemetry from "./RequestTelemetry.ts"
export * as ServiceMetrics from "./ServiceMetrics.ts"
