import { RunId } from "@margin/core/Ids"
import { getRun, listRuns, triggerRun } from "@margin/core/operations/OperationCatalogue"
import { BackgroundRuns } from "@margin/core/ports/BackgroundRuns"
import { RunStatus } from "@margin/core/Run"
import { Runs } from "@margin/core/RunsService"
import { callerActor } from "@margin/edge/auth"
import { IdempotencyKey, ListJson, listJson, pageRequest, RunJson, runJson, TriggerRunBody } from "@margin/edge/wire"
import { Effect, Schema } from "effect"
import { Toolkit } from "effect/ai"
import { marginTool, toolHandlers } from "./MarginTool.ts"
import { pageParams } from "./PageParams.ts"

export const ListRuns = marginTool(listRuns, {
  parameters: Schema.Struct({ ...pageParams, status: Schema.optionalKey(RunStatus) }),
  success: ListJson(RunJson, "RunList")
})

export const GetRun = marginTool(getRun, {
  parameters: Schema.Struct({ run_id: RunId }),
  success: RunJson
})

export const TriggerRun = marginTool(triggerRun, {
  // REST's Idempotency-Key as an argument: an agent that retries a call it lost the answer of
  // gets the run it queued, not a second one (the keys are the workspace's, shared with REST).
  parameters: Schema.Struct({ ...TriggerRunBody.fields, idempotency_key: Schema.optionalKey(IdempotencyKey) }),
  success: RunJson
})

export const RunTools = Toolkit.make(ListRuns, GetRun, TriggerRun)

export const RunToolsLayer = RunTools.toLayer(
  Effect.gen(function* () {
    const runs = yield* Runs
    const background = yield* BackgroundRuns
    const handle = yield* toolHandlers
    return RunTools.of({
      list_runs: handle(ListRuns, (params, caller) =>
        Effect.map(runs.list(caller.workspaceId, { status: params.status ?? null }, pageRequest(params)), (page) =>
          listJson(page, runJson)
        )
      ),
      get_run: handle(GetRun, (params, caller) => Effect.map(runs.get(caller.workspaceId, params.run_id), runJson)),
      trigger_run: handle(TriggerRun, (params, caller) =>
        runs
          .trigger(
            caller.workspaceId,
            params.subset_tags ?? [],
            "mcp",
            callerActor(caller),
            params.idempotency_key === undefined ? {} : { idempotencyKey: params.idempotency_key }
          )
          .pipe(Effect.tap(background.start), Effect.map(runJson))
      )
    })
  })
)
