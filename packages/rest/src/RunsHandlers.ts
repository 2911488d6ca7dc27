import { BackgroundRuns } from "@margin/core/ports/BackgroundRuns"
import { Runs } from "@margin/core/RunsService"
import { Caller, callerActor } from "@margin/edge/auth"
import { listJson, pageRequest, runJson } from "@margin/edge/wire"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, apiMiddlewares } from "./Api.ts"
import { isolatedGroup } from "./IsolatedGroup.ts"

export const RunsHandlers = isolatedGroup(
  Effect.gen(function* () {
    const runs = yield* Runs
    const background = yield* BackgroundRuns
    return HttpApiBuilder.group(Api, "runs", (handlers) =>
      handlers.handleAll({
        listRuns: ({ query }) =>
          Caller.use((caller) =>
            runs.list(caller.workspaceId, { status: query.status ?? null }, pageRequest(query))
          ).pipe(Effect.map((page) => listJson(page, runJson))),
        triggerRun: ({ payload, headers }) =>
          Caller.use((caller) =>
            runs.trigger(
              caller.workspaceId,
              payload?.subset_tags ?? [],
              "api",
              callerActor(caller),
              headers["idempotency-key"] === undefined ? {} : { idempotencyKey: headers["idempotency-key"] }
            )
          ).pipe(Effect.tap(background.start), Effect.map(runJson)),
        getRun: ({ params }) =>
          Caller.use((caller) => runs.get(caller.workspaceId, params.run_id)).pipe(Effect.map(runJson))
      })
    )
  }),
  ...apiMiddlewares
)
