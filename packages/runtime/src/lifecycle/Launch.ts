import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import type { HttpServerRequest } from "effect/http"
import type { Logging } from "./Logging.ts"
import * as ProcessExit from "./ProcessExit.ts"
import { explainStartFailure } from "./StartupFailure.ts"
import * as Tracing from "./Tracing.ts"
import { tuneV8ForServing } from "./V8Tuning.ts"

/** A long-running process of the service, as its `main.ts` launches it. */
export interface ProcessDefinition<E> {
  /** Everything the process runs, from its settings to serving (whatever it provides is unused). */
  readonly layer: Layer.Layer<never, E>
  /** `service.name` of its spans (docs/operations.md, Tracing). */
  readonly serviceName: string
  /** The server span name of a request (default: its method). */
  readonly spanName?: (request: HttpServerRequest.HttpServerRequest) => string
  readonly logging: Logging
  /** Whether it serves requests: V8 is then tuned for them before the first one (V8Tuning). */
  readonly serves: boolean
}

/** Once everything is up: how long the start took, from the process's own start (module loading included). */
const sayReady = (serviceName: string) =>
  Effect.suspend(() => Effect.logInfo(`${serviceName} ready in ${Math.round(globalThis.process.uptime() * 1000)} ms`))

/**
 * Runs a process until SIGTERM / SIGINT: spans over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set; a
 * start that fails (a bad setting, an unreachable database) says why in one log line, then exits 1;
 * a requested stop exits 0 (ProcessExit), after the layers closed in reverse order.
 */
export const run = <E>(process: ProcessDefinition<E>): void => {
  if (process.serves) tuneV8ForServing()
  const tracing = Tracing.layer({
    serviceName: process.serviceName,
    ...(process.spanName === undefined ? {} : { spanName: process.spanName })
  })
  Layer.launch(
    process.layer.pipe(
      Layer.provide(tracing),
      Layer.tap(() => sayReady(process.serviceName))
    )
  ).pipe(
    explainStartFailure,
    Effect.provide(process.logging),
    NodeRuntime.runMain({ disableErrorReporting: true, teardown: ProcessExit.teardown })
  )
}
