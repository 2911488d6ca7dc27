import { getWorkspaceStatus } from "@margin/core/operations/OperationCatalogue"
import { workspaceStatusJson } from "@margin/edge/wire"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, apiMiddlewares } from "./Api.ts"
import { isolatedGroup } from "./IsolatedGroup.ts"
import { answer } from "./OperationEndpoint.ts"

export const WorkspaceHandlers = isolatedGroup(
  Effect.gen(function* () {
    const read = answer(yield* getWorkspaceStatus.binding, workspaceStatusJson)
    return HttpApiBuilder.group(Api, "workspace", (handlers) =>
      handlers.handleAll({ getWorkspaceStatus: () => read({}) })
    )
  }),
  ...apiMiddlewares
)
