import { getWorkspaceStatus } from "@margin/core/operations/OperationCatalogue"
import { WorkspaceStatus } from "@margin/core/WorkspaceStatusService"
import { WorkspaceStatusJson, workspaceStatusJson } from "@margin/edge/wire"
import { Effect, Schema } from "effect"
import { Toolkit } from "effect/ai"
import { marginTool, toolHandlers } from "./MarginTool.ts"

export const GetWorkspaceStatus = marginTool(getWorkspaceStatus, {
  // Not Tool.EmptyParams, which refuses any field: unknown fields are ignored, as for every tool.
  parameters: Schema.Record(Schema.String, Schema.Unknown),
  success: WorkspaceStatusJson
})

export const WorkspaceTools = Toolkit.make(GetWorkspaceStatus)

export const WorkspaceToolsLayer = WorkspaceTools.toLayer(
  Effect.gen(function* () {
    const status = yield* WorkspaceStatus
    const handle = yield* toolHandlers
    return WorkspaceTools.of({
      // account_deletion is the token issuer's own, as in REST.
      get_workspace_status: handle(GetWorkspaceStatus, (_params, caller) =>
        Effect.map(status.read(caller.workspaceId, caller.userId), workspaceStatusJson)
      )
    })
  })
)
