import { MembershipRepository } from "@margin/core/access/MembershipRepository"
import { IdGenerator } from "@margin/core/kernel/IdGenerator"
import { DeletionRequestId, type UserId } from "@margin/core/kernel/Ids"
import { toIso } from "@margin/core/kernel/Timestamp"
import type { DeletionRequest, DeletionState } from "@margin/core/workspaces/DeletionRequest"
import { DeletionRequestRepository } from "@margin/core/workspaces/DeletionRequestRepository"
import { onDatabase } from "@margin/runtime/cli"
import { Clock, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { positiveIntFlag, userFlag } from "./Flags.ts"
import { audited } from "./OperatorAudit.ts"
import { OperatorError } from "./OperatorError.ts"
import { report } from "./Output.ts"
import { requireUser } from "./UserCommands.ts"

/** How long a deletion waits by default before the purge may happen. */
export const defaultDeletionDelayDays = 30

/** Changes a user's deletion request; a user has no workspace of their own, so each workspace they belong to records it. */
const auditedForUser = <A, E, R>(
  change: Effect.Effect<A, E, R>,
  userId: UserId,
  action: string,
  before: DeletionState | null,
  after: DeletionState
) =>
  Effect.flatMap(
    MembershipRepository.use((repository) => repository.listForUser(userId)),
    (memberships) =>
      audited(change, () =>
        memberships.map((membership) => ({
          workspaceId: membership.workspaceId,
          action,
          resourceType: "deletion_request",
          resourceId: userId,
          beforeStatus: before,
          afterStatus: after
        }))
      )
  )

const requestJson = (request: DeletionRequest) => ({
  id: request.id,
  user_id: request.userId,
  state: request.state,
  scheduled_at: toIso(request.scheduledAt),
  effective_at: toIso(request.effectiveAt)
})

const request = Command.make(
  "request",
  {
    user: userFlag,
    effectiveInDays: positiveIntFlag("effective-in-days", "days").pipe(Flag.withDefault(defaultDeletionDelayDays))
  },
  Effect.fn(function* ({ user: userId, effectiveInDays }) {
    yield* requireUser(userId)
    const requests = yield* DeletionRequestRepository
    const active = yield* requests.activeFor(userId)
    if (Option.isSome(active)) {
      return yield* report(
        { ...requestJson(active.value), already_requested: true },
        (r) => `User ${r.user_id} has a deletion request already (${r.state}, effective ${r.effective_at})`
      )
    }
    const now = yield* Clock.currentTimeMillis
    const created: DeletionRequest = {
      id: DeletionRequestId.make(yield* (yield* IdGenerator).next("deletionRequest")),
      userId,
      state: "pending",
      scheduledAt: now,
      effectiveAt: now + effectiveInDays * 86_400_000
    }
    yield* auditedForUser(requests.insert(created), userId, "deletion.request", null, "pending")
    yield* report(
      { ...requestJson(created), already_requested: false },
      (r) => `Scheduled the deletion of ${r.user_id}: pending, effective ${r.effective_at}`
    )
  })
).pipe(
  Command.withDescription("Request the deletion of a user's account"),
  Command.withExamples([{ command: "marginctl deletion request --user usr_01jh8y --effective-in-days 14 --json" }])
)

const move = (name: "block" | "cancel", state: DeletionState, description: string) =>
  Command.make(
    name,
    { user: userFlag },
    Effect.fn(function* ({ user: userId }) {
      yield* requireUser(userId, true)
      const requests = yield* DeletionRequestRepository
      const active = yield* requests.activeFor(userId)
      if (Option.isNone(active)) {
        return yield* new OperatorError({
          message: `user ${userId} has no pending or blocked deletion request`,
          kind: "conflict"
        })
      }
      yield* auditedForUser(requests.setState(userId, state), userId, `deletion.${name}`, active.value.state, state)
      yield* report(
        { ...requestJson({ ...active.value, state }), previous_state: active.value.state },
        (r) => `Deletion request of ${r.user_id}: ${r.previous_state} -> ${r.state}`
      )
    })
  ).pipe(
    Command.withDescription(description),
    Command.withExamples([{ command: `marginctl deletion ${name} --user usr_01jh8y` }])
  )

export const deletionCommand = Command.make("deletion").pipe(
  Command.withDescription("Account deletion requests"),
  Command.withExamples([{ command: "marginctl deletion request --user usr_01jh8y --effective-in-days 14" }]),
  Command.withSubcommands([
    onDatabase(request),
    onDatabase(move("block", "blocked", "Block a user's pending deletion (e.g. a legal hold)")),
    onDatabase(move("cancel", "cancelled", "Cancel a user's pending or blocked deletion"))
  ])
)
