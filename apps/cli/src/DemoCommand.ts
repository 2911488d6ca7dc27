import { MembershipRepository } from "@margin/core/access/MembershipRepository"
import type { Role } from "@margin/core/access/Role"
import { scopes } from "@margin/core/access/Scope"
import { UserRepository } from "@margin/core/access/UserRepository"
import { CatalogRepository } from "@margin/core/catalog/CatalogRepository"
import type { Run } from "@margin/core/runs/Run"
import { RunExecutor } from "@margin/core/runs/RunExecutor"
import { Runs } from "@margin/core/runs/Runs"
import { StoreConnectionRepository } from "@margin/core/stores/StoreConnectionRepository"
import { WorkspaceRepository } from "@margin/core/workspaces/WorkspaceRepository"
import { Clock, Effect, Option } from "effect"
import { Command } from "effect/cli"
import { demoCatalog, demoCatalogHistory } from "./DemoCatalog.ts"
import { demoUrlsConfig, tryItLines } from "./DemoConnection.ts"
import { postgres } from "./LazyModules.ts"
import { addMember } from "./MemberCommands.ts"
import { report } from "./Output.ts"
import { connectStore } from "./StoreCommands.ts"
import { issueToken, tokenJson } from "./TokenCommands.ts"
import { createUser } from "./UserCommands.ts"
import { createWorkspace } from "./WorkspaceCommands.ts"

export const demoWorkspaceName = "Demo Store"

/** The demo's people: an owner (every right) and an approver (the mobile approve flow). */
export const demoUsers: ReadonlyArray<{ readonly email: string; readonly role: Role }> = [
  { email: "owner@demo-store.example", role: "owner" },
  { email: "approver@demo-store.example", role: "approver" }
]

const findOrCreateUser = Effect.fn("findOrCreateUser")(function* (email: string) {
  const existing = yield* UserRepository.use((users) => users.findByEmail(email))
  return Option.isSome(existing) && existing.value.deletedAt === null ? existing.value : yield* createUser(email, true)
})

/**
 * The run the demo shows: its last succeeded run, else one under way (another demo is executing
 * it), else a new run queued now for this demo to execute.
 */
const demoRun = Effect.fn("demoRun")(function* (workspaceId: Run["workspaceId"]) {
  const runs = yield* Runs
  const done = yield* runs.list(workspaceId, { status: "succeeded" }, { limit: 1, cursor: null })
  const latest = done.items[0] ?? (yield* runs.list(workspaceId, { status: null }, { limit: 1, cursor: null })).items[0]
  if (latest !== undefined && latest.status !== "failed" && latest.status !== "cancelled") {
    return { run: latest, execute: false }
  }
  const queued = yield* runs.trigger(workspaceId, [], "cli", { _tag: "SystemActor", name: "marginctl demo" })
  return { run: queued, execute: true }
})

/**
 * Finds the demo workspace or creates it, with its people, catalog, sandbox store and run, under
 * one advisory lock: two demos started at once take turns, and the second finds what the first
 * committed instead of seeding a second workspace. The run is only queued here; executing it
 * (which writes on connections of its own) waits until the lock is released.
 */
const seedDemoUnlocked = Effect.gen(function* () {
  const existing = yield* WorkspaceRepository.use((workspaces) => workspaces.findByName(demoWorkspaceName))
  const workspace = Option.isSome(existing)
    ? existing.value
    : yield* createWorkspace(demoWorkspaceName, "max", "active")
  const people = yield* Effect.forEach(demoUsers, ({ email, role }) =>
    Effect.gen(function* () {
      const user = yield* findOrCreateUser(email)
      const membership = yield* MembershipRepository.use((memberships) => memberships.get(workspace.id, user.id))
      if (Option.isNone(membership)) yield* addMember({ workspaceId: workspace.id, userId: user.id, role })
      return { user, role }
    })
  )
  const catalog = yield* CatalogRepository
  if ((yield* catalog.count(workspace.id)) === 0) {
    // The catalog's past first (a price history for the profit objective to learn from), then today's.
    const now = yield* Clock.currentTimeMillis
    for (const past of demoCatalogHistory()) yield* catalog.upsertMany(workspace.id, past, now)
    yield* catalog.upsertMany(workspace.id, demoCatalog(), now)
  }
  const connection = yield* StoreConnectionRepository.use((stores) => stores.get(workspace.id))
  const sandboxVariants = Option.exists(connection, (c) => c.status === "connected")
    ? null
    : (yield* connectStore(workspace.id, "sandbox", null, null)).variants
  return { workspace, created: Option.isNone(existing), people, sandboxVariants, ...(yield* demoRun(workspace.id)) }
})
const seedDemo = Effect.flatMap(postgres, ({ PgAdvisoryLock }) =>
  PgAdvisoryLock.exclusively("marginctl demo")(seedDemoUnlocked)
)

/**
 * Seeds the demo workspace, or finds it again: a second run adds nothing but fresh tokens (secrets
 * are shown once, so the old ones cannot be printed again).
 */
export const demoCommand = Command.make(
  "demo",
  {},
  Effect.fn(function* () {
    const { workspace, created, people, sandboxVariants, ...seeded } = yield* seedDemo
    const run = seeded.execute ? yield* (yield* RunExecutor).execute(seeded.run) : seeded.run
    const catalog = yield* CatalogRepository
    const urls = yield* demoUrlsConfig
    const tokens = yield* Effect.forEach(people, ({ user, role }) =>
      Effect.map(
        issueToken({
          workspaceId: workspace.id,
          userId: user.id,
          scopes,
          name: `demo ${role}`,
          expiresInSeconds: null
        }),
        (issued) => ({ ...tokenJson(issued), role })
      )
    )
    yield* report(
      {
        workspace_id: workspace.id,
        name: workspace.name,
        plan: workspace.plan,
        created,
        users: people.map(({ user, role }) => ({ id: user.id, email: user.email, role })),
        tokens,
        catalog_items: yield* catalog.count(workspace.id),
        api_url: urls.base,
        mcp_url: urls.mcp,
        store: { platform: "sandbox", sandbox_variants: sandboxVariants },
        run: {
          id: run.id,
          status: run.status,
          fresh: seeded.execute,
          items_analysed: run.itemsAnalysed,
          recommendations: run.recommendationsCount,
          alerts: run.alertsCount
        },
        note: created
          ? "Seeded the demo workspace. Token secrets are shown once: keep them."
          : "The demo workspace exists already: nothing was added but new tokens (secrets are shown once, so earlier ones cannot be shown again)."
      },
      (r) =>
        [
          created
            ? `Seeded "${r.name}" (${r.workspace_id}, plan ${r.plan})`
            : `Found "${r.name}" (${r.workspace_id}, plan ${r.plan})`,
          `  catalog: ${r.catalog_items} items; sandbox store connected`,
          `  run ${r.run.id}: ${r.run.status}, ${r.run.items_analysed} items analysed, ${r.run.recommendations} recommendations, ${r.run.alerts} alerts`,
          ...r.users.map((u) => `  user ${u.id} <${u.email}> (${u.role})`),
          "  tokens (every scope; shown only this once):",
          ...r.tokens.map((t) => `    ${t.role}: ${t.token}`),
          r.note,
          ...(r.tokens[0] === undefined ? [] : tryItLines(urls, r.tokens[0].token, r.users[0]?.email ?? ""))
        ].join("\n")
    )
  })
).pipe(
  Command.withDescription(
    "Seed a demo workspace (plan max, sandbox store, catalog, a finished run) and print its tokens"
  ),
  Command.withExamples([
    { command: "marginctl demo", description: "Seed once; later runs find the workspace and print fresh tokens" }
  ])
)
