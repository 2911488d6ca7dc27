import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { WorkspaceId } from "../kernel/Ids.ts"
import type { Page, PageRequest } from "../kernel/Page.ts"
import type { PricingPolicy } from "../pricing/PricingPolicy.ts"
import type { Plan } from "./Plan.ts"
import type { LifecycleState, Workspace } from "./Workspace.ts"

export class WorkspaceRepository extends Context.Service<
  WorkspaceRepository,
  {
    readonly get: (id: WorkspaceId) => Effect.Effect<Option.Option<Workspace>, RepositoryError>
    readonly insert: (workspace: Workspace) => Effect.Effect<void, RepositoryError>
    readonly setPlan: (id: WorkspaceId, plan: Plan) => Effect.Effect<boolean, RepositoryError>
    readonly setLifecycleState: (id: WorkspaceId, state: LifecycleState) => Effect.Effect<boolean, RepositoryError>
    readonly setPricingPolicy: (id: WorkspaceId, policy: PricingPolicy) => Effect.Effect<boolean, RepositoryError>
    /**
     * Holds the workspace's usage lock until the surrounding transaction ends, so a plan cap's count
     * and the insert it allows cannot interleave with another's (two triggers at the last free run
     * both counting 9 of 10). Outside a transaction it holds nothing.
     */
    readonly lockUsage: (id: WorkspaceId) => Effect.Effect<void, RepositoryError>
    /** Seeding and demos find their workspace again by name. */
    readonly findByName: (name: string) => Effect.Effect<Option.Option<Workspace>, RepositoryError>
    /** Every workspace of the platform, newest first: for operators (marginctl), never for a caller. */
    readonly list: (page: PageRequest) => Effect.Effect<Page<Workspace>, RepositoryError>
  }
>()("margin/core/WorkspaceRepository") {}
