import { Email } from "@margin/core/access/User"
import { toIso } from "@margin/core/kernel/Timestamp"
import { SupportSessions } from "@margin/core/workspaces/SupportSessions"
import { onDatabase } from "@margin/runtime/cli"
import { Effect } from "effect"
import { Command, Flag } from "effect/cli"
import { positiveIntFlag, workspaceFlag } from "./Flags.ts"
import { operatorActor } from "./OperatorActor.ts"
import { OperatorError } from "./OperatorError.ts"
import { report } from "./Output.ts"

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
    const session = yield* SupportSessions.use((sessions) =>
      sessions.open({ workspaceId, adminEmail, minutes }, operatorActor)
    ).pipe(
      Effect.catchTag("SupportSessionOpen", (open) =>
        Effect.fail(
          new OperatorError({
            message: `a support session by ${open.adminEmail} is open on ${workspaceId} until ${toIso(open.expiresAt)}; close it first`,
            kind: "conflict"
          })
        )
      )
    )
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
    const closed = yield* SupportSessions.use((sessions) => sessions.close(workspaceId, operatorActor))
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
