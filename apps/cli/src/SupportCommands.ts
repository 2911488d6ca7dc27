import { Email } from "@margin/core/access/User"
import { IdGenerator } from "@margin/core/kernel/IdGenerator"
import { SupportSessionId } from "@margin/core/kernel/Ids"
import { toIso } from "@margin/core/kernel/Timestamp"
import type { SupportSession } from "@margin/core/workspaces/SupportSession"
import { SupportSessionRepository } from "@margin/core/workspaces/SupportSessionRepository"
import { onDatabase } from "@margin/runtime/cli"
import { Clock, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { positiveIntFlag, workspaceFlag } from "./Flags.ts"
import { audited } from "./OperatorAudit.ts"
import { OperatorError } from "./OperatorError.ts"
import { report } from "./Output.ts"
import { requireWorkspace } from "./WorkspaceCommands.ts"

const open = Command.make(
  "open",
  {
    workspace: workspaceFlag,
    adminEmail: Flag.String("admin-email").pipe(
      Flag.withDescription("The support administrator's e-mail address, shown to the workspace"),
      Flag.withSchema(Email)
    ),
    minutes: positiveIntFlag("minutes", "minutes").pipe(Flag.withDefault(60))
  },
  Effect.fn(function* ({ workspace: workspaceId, adminEmail, minutes }) {
    yield* requireWorkspace(workspaceId)
    const sessions = yield* SupportSessionRepository
    const now = yield* Clock.currentTimeMillis
    const active = yield* sessions.activeFor(workspaceId, now)
    if (Option.isSome(active)) {
      return yield* new OperatorError({
        message: `a support session by ${active.value.adminEmail} is open on ${workspaceId} until ${toIso(active.value.expiresAt)}; close it first`,
        kind: "conflict"
      })
    }
    const session: SupportSession = {
      id: SupportSessionId.make(yield* (yield* IdGenerator).next("supportSession")),
      workspaceId,
      adminEmail,
      startedAt: now,
      expiresAt: now + minutes * 60_000,
      closedAt: null
    }
    yield* audited(sessions.open(session), () => [
      {
        workspaceId,
        action: "support.open",
        resourceType: "support_session",
        resourceId: session.id,
        beforeStatus: null,
        afterStatus: "open"
      }
    ])
    yield* report(
      {
        id: session.id,
        workspace_id: workspaceId,
        admin_email: adminEmail,
        started_at: toIso(session.startedAt),
        expires_at: toIso(session.expiresAt)
      },
      (s) => `Opened a support session on ${s.workspace_id} for ${s.admin_email} until ${s.expires_at}`
    )
  })
).pipe(
  Command.withDescription("Open a platform support session on a workspace (shown in its status)"),
  Command.withExamples([
    { command: "marginctl support open --workspace ws_01jh8x --admin-email support@margin.example --minutes 30 --json" }
  ])
)

const close = Command.make(
  "close",
  { workspace: workspaceFlag },
  Effect.fn(function* ({ workspace: workspaceId }) {
    yield* requireWorkspace(workspaceId)
    const now = yield* Clock.currentTimeMillis
    const closed = yield* audited(
      SupportSessionRepository.use((sessions) => sessions.close(workspaceId, now)),
      (count) =>
        count === 0
          ? []
          : [
              {
                workspaceId,
                action: "support.close",
                resourceType: "support_session",
                resourceId: workspaceId,
                beforeStatus: "open",
                afterStatus: "closed"
              }
            ]
    )
    yield* report({ workspace_id: workspaceId, closed }, (r) =>
      r.closed === 0
        ? `No support session was open on ${r.workspace_id}`
        : `Closed ${r.closed} support session${r.closed === 1 ? "" : "s"} on ${r.workspace_id}`
    )
  })
).pipe(
  Command.withDescription("Close the support sessions open on a workspace"),
  Command.withExamples([{ command: "marginctl support close --workspace ws_01jh8x" }])
)

export const supportCommand = Command.make("support").pipe(
  Command.withDescription("Platform support sessions"),
  Command.withExamples([
    { command: "marginctl support open --workspace ws_01jh8x --admin-email support@margin.example --minutes 30" }
  ]),
  Command.withSubcommands([onDatabase(open), onDatabase(close)])
)
