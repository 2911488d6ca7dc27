import { GrantId } from "@margin/core/kernel/Ids"
import { toIso } from "@margin/core/kernel/Timestamp"
import { GrantRevocation } from "@margin/core/oauth/GrantRevocation"
import type { OAuthGrant } from "@margin/core/oauth/OAuthGrant"
import { OAuthGrantRepository } from "@margin/core/oauth/OAuthGrantRepository"
import { onDatabase } from "@margin/runtime/cli"
import { Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { userFlag } from "./Flags.ts"
import { reportListing } from "./Listing.ts"
import { operatorActor } from "./OperatorActor.ts"
import { report } from "./Output.ts"

const grantJson = (grant: OAuthGrant) => ({
  id: grant.id,
  user_id: grant.userId,
  client_id: grant.clientId,
  workspace_id: grant.workspaceId,
  scopes: grant.scopes,
  resource: grant.resource,
  created_at: toIso(grant.createdAt),
  revoked_at: grant.revokedAt === null ? null : toIso(grant.revokedAt)
})

const list = Command.make(
  "list",
  { user: userFlag.pipe(Flag.optional) },
  Effect.fn(function* ({ user }) {
    const grants = yield* OAuthGrantRepository.use((repository) =>
      repository.list(Option.match(user, { onNone: () => ({}), onSome: (userId) => ({ userId }) }))
    )
    // Every grant (a user has a few): one page, nothing after it.
    yield* reportListing(
      { rows: grants.map(grantJson), after: null },
      [
        ["ID", (row) => row.id],
        ["STATE", (row) => (row.revoked_at === null ? "live" : `revoked ${row.revoked_at}`)],
        ["USER", (row) => row.user_id],
        ["WORKSPACE", (row) => row.workspace_id],
        ["CLIENT", (row) => row.client_id],
        ["SCOPES", (row) => row.scopes.join(",")]
      ],
      "No OAuth grants."
    )
  })
).pipe(
  Command.withDescription("List OAuth grants (AI agents a user let act in a workspace), newest first"),
  Command.withExamples([{ command: "marginctl grant list --user usr_01jh8y --json" }])
)

const revoke = Command.make(
  "revoke",
  { grantId: Flag.String("grant-id").pipe(Flag.withDescription("The grant id (grt_…)"), Flag.map(GrantId.make)) },
  Effect.fn(function* ({ grantId }) {
    const { grant, revokedAt, revokedNow } = yield* GrantRevocation.use((grants) =>
      grants.revoke(grantId, operatorActor)
    )
    if (!revokedNow) {
      return yield* report(
        { id: grant.id, revoked_at: toIso(revokedAt), already_revoked: true },
        (r) => `Grant ${r.id} was revoked already, at ${r.revoked_at}`
      )
    }
    yield* report(
      { id: grant.id, revoked_at: toIso(revokedAt), already_revoked: false },
      (r) => `Revoked grant ${r.id}: its access and refresh tokens stop working now`
    )
  })
).pipe(
  Command.withDescription("Revoke an OAuth grant and every token issued under it"),
  Command.withExamples([{ command: "marginctl grant revoke --grant-id grt_01jh8z" }])
)

export const grantCommand = Command.make("grant").pipe(
  Command.withDescription("List and revoke OAuth grants of the MCP server"),
  Command.withExamples([{ command: "marginctl grant list" }]),
  Command.withSubcommands([onDatabase(list), onDatabase(revoke)])
)
