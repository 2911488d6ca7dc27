import { Context, type Effect } from "effect"
import type { AuditEvent } from "../AuditEvent.ts"
import type { RepositoryError } from "../Errors.ts"
import type { WorkspaceId } from "../Ids.ts"
import type { Page, PageRequest } from "../Page.ts"

export class AuditRepository extends Context.Service<
  AuditRepository,
  {
    readonly record: (event: AuditEvent) => Effect.Effect<void, RepositoryError>
    readonly list: (workspaceId: WorkspaceId, page: PageRequest) => Effect.Effect<Page<AuditEvent>, RepositoryError>
  }
>()("margin/core/AuditRepository") {}
