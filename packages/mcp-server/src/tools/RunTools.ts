import { getRun, listRuns, triggerRun } from "@margin/core/operations/OperationCatalogue"
import { ListJson, listJson, RunJson, runJson } from "@margin/edge/wire"
import { Effect } from "effect"
import { Toolkit } from "effect/ai"
import { marginTool, toolHandlers, toolParameters } from "./MarginTool.ts"

export const ListRuns = marginTool(listRuns, {
  parameters: toolParameters(listRuns),
  success: ListJson(RunJson, "RunList")
})

export const GetRun = marginTool(getRun, {
  parameters: toolParameters(getRun),
  success: RunJson
})

export const TriggerRun = marginTool(triggerRun, {
  parameters: toolParameters(triggerRun),
  success: RunJson
})

export const RunTools = Toolkit.make(ListRuns, GetRun, TriggerRun)

export const RunToolsLayer = RunTools.toLayer(
  Effect.gen(function* () {
    const handle = yield* toolHandlers
    return RunTools.of({
      list_runs: handle(ListRuns, yield* listRuns.binding, (page) => listJson(page, runJson)),
      get_run: handle(GetRun, yield* getRun.binding, runJson),
      // Queues the run and wakes this process's run worker (the binding's trigger-and-wake).
      trigger_run: handle(TriggerRun, yield* triggerRun.binding, runJson)
    })
  })
)
