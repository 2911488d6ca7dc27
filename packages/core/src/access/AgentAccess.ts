import { Context, Effect, Layer, Option } from "effect"
import { type RepositoryError, ResourceNotFound, TierIneligible } from "../kernel/Errors.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import { planLimits } from "../workspaces/Plan.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"

export type AgentAccessRefusal = ResourceNotFound | TierIneligible | RepositoryError

/**
 * Whether a workspace may be reached by AI agents at all: the MCP server is a Max and Enterprise
 * feature (`planLimits[plan].mcp`). A rule of the plan, so the domain's; the MCP transports ask it
 * once per request after the credential, before any tool.
 */
export class AgentAccess extends Context.Service<
  AgentAccess,
  { readonly admit: (workspaceId: WorkspaceId) => Effect.Effect<void, AgentAccessRefusal> }
>()("margin/core/AgentAccess") {
  static readonly layer = Layer.effect(
    AgentAccess,
    Effect.gen(function* () {
      const workspaces = yield* WorkspaceRepository
      return AgentAccess.of({
        // Untraced: it runs on every MCP request, as the credential check beside it does.
        admit: Effect.fnUntraced(function* (workspaceId: WorkspaceId) {
          const workspace = yield* workspaces.get(workspaceId)
          if (Option.isNone(workspace)) return yield* new ResourceNotFound({ resource: "workspace", id: workspaceId })
          if (!planLimits[workspace.value.plan].mcp) return yield* new TierIneligible({ plan: workspace.value.plan })
        })
      })
    })
  )
}
