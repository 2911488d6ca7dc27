import { Context, type Effect } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import type { Page, PageRequest } from "../kernel/Page.ts"
import type { AuditEvent } from "./AuditEvent.ts"

export class AuditRepository extends Context.Service<
  AuditRepository,
  {
    readonly record: (event: AuditEvent) => Effect.Effect<void, RepositoryError>
    readonly list: (workspaceId: WorkspaceId, page: PageRequest) => Effect.Effect<Page<AuditEvent>, RepositoryError>
  }
>()("margin/core/AuditRepository") {}
