import { RunId } from "@margin/core/Ids"
import { BackgroundRuns } from "@margin/core/ports/BackgroundRuns"
import { RunStatus } from "@margin/core/Run"
import { Runs } from "@margin/core/RunsService"
import { callerActor, mutationAccess, readAccess } from "@margin/edge/auth"
import { ListJson, listJson, pageRequest, RunJson, runJson, TriggerRunBody } from "@margin/edge/wire"
import { Effect, Schema } from "effect"
import { Toolkit } from "effect/ai"
import { marginTool, reads, toolHandlers } from "./MarginTool.ts"
import { pageParams } from "./PageParams.ts"

export const ListRuns = marginTool("list_runs", {
  title: "List runs",
  description:
    "Analysis runs of the workspace, newest first, optionally one status. Answers one page: pass its next_cursor as cursor for the next.",
  access: readAccess("runs:read"),
  hints: reads,
  parameters: Schema.Struct({ ...pageParams, status: Schema.optionalKey(RunStatus) }),
  success: ListJson(RunJson, "RunList")
})

export const GetRun = marginTool("get_run", {
  title: "Get a run",
  description: "One run with its status and progress counts; poll it after trigger_run.",
  access: readAccess("runs:read"),
  hints: reads,
  parameters: Schema.Struct({ run_id: RunId }),
  success: RunJson
})

export const TriggerRun = marginTool("trigger_run", {
  title: "Trigger a run",
  description:
    "Queues an analysis run over the catalog items carrying any of subset_tags (the whole catalog when omitted or empty) and starts it; answers the queued run. Each call queues a new run and counts against the plan's monthly runs.",
  access: mutationAccess("runs:trigger"),
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  parameters: TriggerRunBody,
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
          .trigger(caller.workspaceId, params.subset_tags ?? [], "mcp", callerActor(caller))
          .pipe(Effect.tap(background.start), Effect.map(runJson))
      )
    })
  })
)
