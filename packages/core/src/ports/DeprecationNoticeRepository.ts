import { Context, type Effect } from "effect"
import type { DeprecationNoticeRecord, NoticeRecipient } from "../DeprecationNotice.ts"
import type { RepositoryError } from "../Errors.ts"

/** Who is told of a deprecated operation, and who was told when (spec section 9). */
export class DeprecationNoticeRepository extends Context.Service<
  DeprecationNoticeRepository,
  {
    /**
     * Every owner and admin of every workspace, deleted users left out, each with when they were
     * notified of `operation` (null: not yet); by workspace, then user.
     */
    readonly recipients: (operation: string) => Effect.Effect<ReadonlyArray<NoticeRecipient>, RepositoryError>
    /** Records a sent notice; recording the same (operation, workspace, user) again keeps the first. */
    readonly record: (notice: DeprecationNoticeRecord) => Effect.Effect<void, RepositoryError>
  }
>()("margin/core/DeprecationNoticeRepository") {}
