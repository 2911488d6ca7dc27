import { toIso } from "@margin/core/kernel/Timestamp"
import { AccountDeletions } from "@margin/core/workspaces/AccountDeletions"
import type { DeletionRequest } from "@margin/core/workspaces/DeletionRequest"
import { onDatabase } from "@margin/runtime/cli"
import { Effect } from "effect"
import { Command, Flag } from "effect/cli"
import { positiveIntFlag, userFlag } from "./Flags.ts"
import { operatorActor } from "./OperatorActor.ts"
import { OperatorError } from "./OperatorError.ts"
import { report } from "./Output.ts"
import { userDeletedSaid } from "./UserCommands.ts"

/** How long a deletion waits by default before the purge may happen. */
export const defaultDeletionDelayDays = 30

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
    const { request: created, createdNow } = yield* AccountDeletions.use((deletions) =>
      deletions.request(userId, effectiveInDays, operatorActor)
    ).pipe(Effect.catchTag("UserDeleted", (deleted) => Effect.fail(userDeletedSaid(deleted))))
    if (!createdNow) {
      return yield* report(
        { ...requestJson(created), already_requested: true },
        (r) => `User ${r.user_id} has a deletion request already (${r.state}, effective ${r.effective_at})`
      )
    }
    yield* report(
      { ...requestJson(created), already_requested: false },
      (r) => `Scheduled the deletion of ${r.user_id}: pending, effective ${r.effective_at}`
    )
  })
).pipe(
  Command.withDescription("Request the deletion of a user's account"),
  Command.withExamples([{ command: "marginctl deletion request --user usr_01jh8y --effective-in-days 14 --json" }])
)

const move = (name: "block" | "cancel", state: "blocked" | "cancelled", description: string) =>
  Command.make(
    name,
    { user: userFlag },
    Effect.fn(function* ({ user: userId }) {
      const before = yield* AccountDeletions.use((deletions) => deletions.move(userId, state, operatorActor)).pipe(
        Effect.catchTag("NoActiveDeletion", () =>
          Effect.fail(
            new OperatorError({
              message: `user ${userId} has no pending or blocked deletion request`,
              kind: "conflict"
            })
          )
        )
      )
      yield* report(
        { ...requestJson({ ...before, state }), previous_state: before.state },
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
