import { WorkspaceStatus } from "@margin/core/WorkspaceStatusService"
import { Caller } from "@margin/edge/auth"
import { workspaceStatusJson } from "@margin/edge/wire"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, apiMiddlewares } from "./Api.ts"
import { isolatedGroup } from "./IsolatedGroup.ts"

export const WorkspaceHandlers = isolatedGroup(
  Effect.gen(function* () {
    const status = yield* WorkspaceStatus
    return HttpApiBuilder.group(Api, "workspace", (handlers) =>
      handlers.handleAll({
        // account_deletion is the calling user's own: the session's user, or the token's issuer.
        getWorkspaceStatus: () =>
          Caller.use((caller) => status.read(caller.workspaceId, caller.userId)).pipe(Effect.map(workspaceStatusJson))
      })
    )
  }),
  ...apiMiddlewares
)
