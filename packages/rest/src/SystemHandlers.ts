import { Readiness } from "@margin/edge/telemetry"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "./Api.ts"
import { isolatedGroup } from "./IsolatedGroup.ts"

export const SystemHandlers = isolatedGroup(
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
