import { getRun, listRuns, triggerRun } from "@margin/core/operations/OperationCatalogue"
import { listJson, runJson } from "@margin/edge/wire"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, apiMiddlewares } from "./Api.ts"
import { isolatedGroup } from "./IsolatedGroup.ts"
import { answer } from "./OperationEndpoint.ts"

export const RunsHandlers = isolatedGroup(
  Effect.gen(function* () {
    const list = answer(yield* listRuns.binding, (page) => listJson(page, runJson))
    // Queues the run and wakes this process's run worker (the binding's trigger-and-wake).
    const trigger = answer(yield* triggerRun.binding, runJson)
    const get = answer(yield* getRun.binding, runJson)
    return HttpApiBuilder.group(Api, "runs", (handlers) =>
      handlers.handleAll({
        listRuns: ({ query }) => list(query),
        triggerRun: ({ payload, headers }) => {
          const key = headers["idempotency-key"]
          return trigger({ ...(payload ?? {}), ...(key === undefined ? {} : { idempotency_key: key }) })
        },
        getRun: ({ params }) => get(params)
      })
    )
  }),
  ...apiMiddlewares
)
