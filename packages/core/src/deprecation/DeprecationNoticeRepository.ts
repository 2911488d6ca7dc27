import { Context, type Effect } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { UserId, WorkspaceId } from "../kernel/Ids.ts"
import type { DeprecationNoticeClaim, DeprecationNoticeRecord, NoticeRecipient } from "./DeprecationNotice.ts"

export type ClaimOutcome = "claimed" | "sent" | "held"

/** Who is told of a deprecated operation, and who was told when (docs/contract.md, "Versioning and deprecation"). */
export class DeprecationNoticeRepository extends Context.Service<
  DeprecationNoticeRepository,
  {
    /**
     * Every owner and admin of every workspace, deleted users left out, each with when they were
     * notified of `operation` (null: not yet); by workspace, then user.
     */
    readonly recipients: (operation: string) => Effect.Effect<ReadonlyArray<NoticeRecipient>, RepositoryError>
    /**
     * Claims one send of the (operation, workspace, user): `claimed` when this call now holds it
     * (it was neither sent nor claimed until after `claim.at`), `sent` when it was recorded as sent,
     * `held` when another run's claim still holds. Across processes, one claim holds at a time.
     */
    readonly claim: (claim: DeprecationNoticeClaim) => Effect.Effect<ClaimOutcome, RepositoryError>
    /** Records a sent notice (and ends its claim); recording the same one again keeps the first. */
    readonly record: (notice: DeprecationNoticeRecord) => Effect.Effect<void, RepositoryError>
    /** Drops the claim of a notice that was not sent, so that the next run tries it again at once. */
    readonly release: (
      operation: string,
      workspaceId: WorkspaceId,
      userId: UserId
    ) => Effect.Effect<void, RepositoryError>
  }
>()("margin/core/DeprecationNoticeRepository") {}
