import { Readiness } from "@margin/edge/telemetry"
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "./Api.ts"

export const SystemHandlers = Layer.unwrap(
  Effect.gen(function* () {
    const readiness = yield* Readiness
    return HttpApiBuilder.group(Api, "system", (handlers) =>
      handlers.handleAll({
        healthz: () => Effect.succeed({ status: "ok" as const }),
        readyz: () => Effect.as(readiness.check, { status: "ready" as const })
      })
    )
  })
)
