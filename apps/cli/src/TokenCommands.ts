import { type ApiToken, tokenState } from "@margin/core/access/ApiToken"
import { type IssuedToken, OperatorTokens, type TokenRequest } from "@margin/core/access/OperatorTokens"
import { type Scope, scopes } from "@margin/core/access/Scope"
import { TokenRepository } from "@margin/core/access/TokenRepository"
import { ResourceNotFound } from "@margin/core/kernel/Errors"
import { TokenId, type WorkspaceId } from "@margin/core/kernel/Ids"
import { toIso } from "@margin/core/kernel/Timestamp"
import { onDatabase } from "@margin/runtime/cli"
import { Clock, Effect, Option, Redacted, Schema } from "effect"
import { Command, Flag } from "effect/cli"
import { details } from "./Details.ts"
import { idArgument, positiveIntFlag, userFlag, workspaceFlag } from "./Flags.ts"
import { afterFlag, cursorAt, limitFlag, listingOf, reportListing } from "./Listing.ts"
import { operatorActor } from "./OperatorActor.ts"
import { OperatorError } from "./OperatorError.ts"
import { report } from "./Output.ts"
import { userDeletedSaid } from "./UserCommands.ts"
import { requireWorkspace } from "./WorkspaceCommands.ts"

/** `all`, or scopes separated by commas. */
export const parseScopes = (text: string): Effect.Effect<ReadonlyArray<Scope>, OperatorError> => {
  if (text.trim() === "all") return Effect.succeed(scopes)
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "")
  const unknown = names.filter((name) => !scopes.some((scope) => scope === name))
  if (names.length === 0 || unknown.length > 0) {
    return Effect.fail(
      new OperatorError({
        message: `${names.length === 0 ? "no scopes given" : `unknown scope ${unknown.join(", ")}`}; use all or some of ${scopes.join(",")}`,
        kind: "usage"
      })
    )
  }
  return Effect.succeed(scopes.filter((scope) => names.includes(scope)))
}

/** Issues a token of the workspace on behalf of one of its members (core's `OperatorTokens`); only the secret's hash is stored. */
export const issueToken = (request: TokenRequest) =>
  OperatorTokens.use((tokens) => tokens.issue(request, operatorActor)).pipe(
    Effect.catchTags({
      UserDeleted: (deleted) => Effect.fail(userDeletedSaid(deleted)),
      NotAMember: (refused) =>
        Effect.fail(
          new OperatorError({
            message: `user ${refused.userId} is not a member of workspace ${refused.workspaceId}: add them with marginctl member add`
          })
        )
    })
  )

export const tokenJson = ({ token, secret }: IssuedToken) => ({
  id: token.id,
  token: Redacted.value(secret),
  workspace_id: token.workspaceId,
  user_id: token.issuedBy,
  name: token.name,
  scopes: token.scopes,
  expires_at: token.expiresAt === null ? null : toIso(token.expiresAt)
})

const TokenName = Schema.String.pipe(Schema.check(Schema.isBetweenLength(1, 100)))

const create = Command.make(
  "create",
  {
    workspace: workspaceFlag,
    user: userFlag,
    scopes: Flag.String("scopes").pipe(Flag.withDescription(`Comma-separated scopes, or all: ${scopes.join(",")}`)),
    expiresIn: positiveIntFlag("expires-in", "seconds").pipe(Flag.optional),
    name: Flag.String("name").pipe(Flag.withSchema(TokenName), Flag.withDefault("marginctl"))
  },
  Effect.fn(function* (input) {
    const issued = yield* issueToken({
      workspaceId: input.workspace,
      userId: input.user,
      scopes: yield* parseScopes(input.scopes),
      name: input.name,
      expiresInSeconds: Option.getOrNull(input.expiresIn)
    })
    yield* report(
      tokenJson(issued),
      (t) =>
        `Created token ${t.id} for ${t.user_id} in ${t.workspace_id} (${t.scopes.join(",")}${t.expires_at === null ? "" : `, expires ${t.expires_at}`}).\nSecret, shown only this once:\n${t.token}`
    )
  })
).pipe(
  Command.withDescription("Issue an API token; prints its id and its secret, once"),
  Command.withExamples([
    {
      command: "marginctl token create --workspace ws_01jh8x --user usr_01jh8y --scopes all --json",
      description: "Every scope, no expiry"
    },
    {
      command:
        "marginctl token create --workspace ws_01jh8x --user usr_01jh8y --scopes runs:read,recommendations:read --expires-in 2592000 --name ci",
      description: "Read-only, for 30 days"
    }
  ])
)

/** A stored token as marginctl shows it: never its secret (only its hash is stored). */
const storedTokenJson = (token: ApiToken, now: number) => {
  const state = tokenState(token, now)
  return {
    id: token.id,
    name: token.name,
    workspace_id: token.workspaceId,
    user_id: token.issuedBy,
    scopes: token.scopes,
    state: state === "usable" ? "active" : state,
    created_at: toIso(token.createdAt),
    expires_at: token.expiresAt === null ? null : toIso(token.expiresAt),
    last_used_at: token.lastUsedAt === null ? null : toIso(token.lastUsedAt),
    revoked_at: token.revokedAt === null ? null : toIso(token.revokedAt)
  }
}

/** The token, of `workspace` when given, or a failure naming the id. */
const requireToken = Effect.fn("requireToken")(function* (id: TokenId, workspace: WorkspaceId | null = null) {
  const found = yield* TokenRepository.use((tokens) => tokens.get(id))
  if (Option.isNone(found)) return yield* new ResourceNotFound({ resource: "token", id })
  if (workspace !== null && found.value.workspaceId !== workspace) {
    return yield* new OperatorError({ message: `no token ${id} in ${workspace}`, kind: "not_found" })
  }
  return found.value
})

const revoke = Command.make(
  "revoke",
  { tokenId: Flag.String("token-id").pipe(Flag.withDescription("The token id (tok_…)"), Flag.map(TokenId.make)) },
  Effect.fn(function* ({ tokenId }) {
    const { token, revokedAt, revokedNow } = yield* OperatorTokens.use((tokens) =>
      tokens.revoke(tokenId, operatorActor)
    )
    if (!revokedNow) {
      return yield* report(
        { id: token.id, revoked_at: toIso(revokedAt), already_revoked: true },
        (r) => `Token ${r.id} was revoked already, at ${r.revoked_at}`
      )
    }
    yield* report(
      { id: token.id, revoked_at: toIso(revokedAt), already_revoked: false },
      (r) => `Revoked token ${r.id}`
    )
  })
).pipe(
  Command.withDescription("Revoke an API token"),
  Command.withExamples([{ command: "marginctl token revoke --token-id tok_01jh8z" }])
)

const list = Command.make(
  "list",
  {
    workspace: workspaceFlag,
    user: userFlag.pipe(Flag.withDescription("Only the tokens this user issued (usr_…)"), Flag.optional),
    limit: limitFlag,
    after: afterFlag("tok", "token")
  },
  Effect.fn(function* ({ workspace, user, limit, after }) {
    yield* requireWorkspace(workspace)
    const cursor = Option.isSome(after) ? cursorAt(yield* requireToken(TokenId.make(after.value), workspace)) : null
    const page = yield* TokenRepository.use((tokens) =>
      tokens.listForWorkspace(workspace, { issuedBy: Option.getOrNull(user) }, { limit, cursor })
    )
    const now = yield* Clock.currentTimeMillis
    yield* reportListing(
      listingOf(
        page,
        (token) => storedTokenJson(token, now),
        (token) => token.id
      ),
      [
        ["ID", (t) => t.id],
        ["NAME", (t) => t.name],
        ["USER", (t) => t.user_id],
        ["STATE", (t) => t.state],
        ["CREATED", (t) => t.created_at],
        ["EXPIRES", (t) => t.expires_at],
        ["LAST USED", (t) => t.last_used_at],
        ["SCOPES", (t) => (t.scopes.length === scopes.length ? "all" : t.scopes.join(","))]
      ],
      `${workspace} has no tokens${Option.isSome(user) ? ` issued by ${user.value}` : ""}`
    )
  })
).pipe(
  Command.withDescription(
    "List a workspace's API tokens, revoked and expired ones too, newest first (never their secrets)"
  ),
  Command.withExamples([
    { command: "marginctl token list --workspace ws_01jh8x" },
    {
      command: "marginctl token list --workspace ws_01jh8x --user usr_01jh8y --json",
      description: "Only the tokens one user issued, as a JSON array"
    }
  ])
)

const show = Command.make(
  "show",
  { token: idArgument("tok", "token") },
  Effect.fn(function* ({ token: id }) {
    const token = yield* requireToken(TokenId.make(id))
    yield* report(storedTokenJson(token, yield* Clock.currentTimeMillis), (t) =>
      details([
        ["id", t.id],
        ["name", t.name],
        ["workspace", t.workspace_id],
        ["user", t.user_id],
        ["state", t.state],
        ["scopes", t.scopes.join(",")],
        ["created", t.created_at],
        ["expires", t.expires_at],
        ["last used", t.last_used_at],
        ["revoked", t.revoked_at]
      ])
    )
  })
).pipe(
  Command.withDescription("Show an API token (never its secret); exits 3 when there is no such token"),
  Command.withExamples([{ command: "marginctl token show tok_01jh8z --json" }])
)

export const tokenCommand = Command.make("token").pipe(
  Command.withDescription("Issue, list, show and revoke API tokens"),
  Command.withExamples([
    { command: "marginctl token create --workspace ws_01jh8x --user usr_01jh8y --scopes all" },
    { command: "marginctl token list --workspace ws_01jh8x" }
  ]),
  Command.withSubcommands([onDatabase(create), onDatabase(list), onDatabase(show), onDatabase(revoke)])
)
