import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { Readiness } from "./Readiness.ts"

/** Seconds a load balancer waits before asking an unready process again. */
const retryAfterSeconds = "5"

/**
 * GET /healthz (the process is up) and GET /readyz (its database answers, else 503) for the
 * processes without the REST API, whose HttpApi serves its own: the MCP server and the worker.
 */
export const layer = Layer.mergeAll(
  HttpRouter.add("GET", "/healthz", Effect.succeed(HttpServerResponse.jsonUnsafe({ status: "ok" }))),
  HttpRouter.add(
    "GET",
    "/readyz",
    Readiness.use((readiness) => readiness.check).pipe(
      Effect.as(HttpServerResponse.jsonUnsafe({ status: "ready" })),
      Effect.catch((error) =>
        Effect.succeed(
          HttpServerResponse.jsonUnsafe(
            { code: "service_unavailable", message: `The database does not answer: ${error.message}` },
            { status: 503, headers: { "retry-after": retryAfterSeconds } }
          )
        )
      )
    )
  )
)
