import { getWorkspaceStatus } from "@margin/core/operations/OperationCatalogue"
import { WorkspaceStatusJson, workspaceStatusJson } from "@margin/edge/wire"
import { Effect, Schema } from "effect"
import { Toolkit } from "effect/ai"
import { marginTool, toolHandlers } from "./MarginTool.ts"

export const GetWorkspaceStatus = marginTool(getWorkspaceStatus, {
  // The operation takes no input. Not Tool.EmptyParams, which refuses any field: unknown fields
  // are ignored, as for every tool.
  parameters: Schema.Record(Schema.String, Schema.Unknown),
  success: WorkspaceStatusJson
})

export const WorkspaceTools = Toolkit.make(GetWorkspaceStatus)

export const WorkspaceToolsLayer = WorkspaceTools.toLayer(
  Effect.gen(function* () {
    const handle = yield* toolHandlers
    return WorkspaceTools.of({
      get_workspace_status: handle(GetWorkspaceStatus, yield* getWorkspaceStatus.binding, workspaceStatusJson)
    })
  })
)
