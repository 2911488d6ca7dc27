import { createServer } from "node:http"
import { NodeHttpServer } from "@effect/platform-node"
import { answerOutsideTheApp } from "@margin/edge/serving"
import { HealthRoutes, MetricsRoute } from "@margin/edge/telemetry"
import { Cause, Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"

export interface OperationsServerOptions {
  readonly host: string
  readonly port: number
}

/**
 * /metrics (METRICS_TOKEN as on the REST server), /healthz and /readyz on a port of their own, for a
 * process that serves nothing else (the worker). A port that cannot be taken is logged as an error
 * and the process goes on without them: its work matters more than its figures.
 */
export const layer = (options: OperationsServerOptions) =>
  HttpRouter.serve(Layer.mergeAll(MetricsRoute.layer, HealthRoutes.layer), { disableLogger: true }).pipe(
    Layer.provide(
      NodeHttpServer.layer(() => answerOutsideTheApp(createServer()), {
        port: options.port,
        host: options.host
      })
    ),
    Layer.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause)
        ? Layer.effectDiscard(Effect.failCause(cause))
        : Layer.effectDiscard(
            Effect.logError(
              `metrics: cannot listen on ${options.host}:${options.port}; this process serves no /metrics`,
              Cause.squash(cause)
            )
          )
    )
  )
