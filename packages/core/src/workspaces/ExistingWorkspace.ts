import { Effect, Option } from "effect"
import { type RepositoryError, ResourceNotFound } from "../kernel/Errors.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import type { Workspace } from "./Workspace.ts"
import type { WorkspaceRepository } from "./WorkspaceRepository.ts"

/** The workspace, or not found: what every change to one needs first. */
export const existingWorkspace = (
  workspaces: WorkspaceRepository["Service"],
  id: WorkspaceId
): Effect.Effect<Workspace, ResourceNotFound | RepositoryError> =>
  Effect.flatMap(workspaces.get(id), (found) =>
    Option.match(found, {
      onNone: () => Effect.fail(new ResourceNotFound({ resource: "workspace", id })),
      onSome: Effect.succeed
    })
  )
