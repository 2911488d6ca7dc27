import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "./Api.ts"
import { Readiness } from "./Readiness.ts"

export const SystemHandlers = HttpApiBuilder.group(Api, "system", (handlers) =>
  Effect.gen(function* () {
    const readiness = yield* Readiness
    return handlers.handleAll({
      healthz: () => Effect.succeed({ status: "ok" as const }),
      readyz: () => Effect.as(readiness.check, { status: "ready" as const })
    })
  })
)
