import { MembershipRepository } from "@margin/core/access/MembershipRepository"
import { ResourceNotFound } from "@margin/core/kernel/Errors"
import { RecommendationId, UserId, WorkspaceId } from "@margin/core/kernel/Ids"
import { toIso } from "@margin/core/kernel/Timestamp"
import { Cadence, weekdays } from "@margin/core/schedules/SyncSchedule"
import { type ScheduleView, SyncSchedules } from "@margin/core/schedules/SyncSchedules"
import { type StoreConnection, StoreConnectionStatus, StorePlatform } from "@margin/core/stores/StoreConnection"
import { StoreConnectionRepository } from "@margin/core/stores/StoreConnectionRepository"
import { StoreConnections } from "@margin/core/stores/StoreConnections"
import type { StoreSyncReport } from "@margin/core/stores/StoreSyncState"
import { StoreSyncs } from "@margin/core/stores/StoreSyncs"
import { WriteBackCancellation } from "@margin/core/writeback/WriteBackCancellation"
import { catalogImportSummaryJson } from "@margin/edge/wire"
import { PgSandboxStore } from "@margin/postgres"
import { onDatabase } from "@margin/runtime/cli"
import { requireMyshopifyDomain } from "@margin/stores"
import { Effect, Option, type Redacted, Result, Schema } from "effect"
import { Command, Flag } from "effect/cli"
import { details } from "./Details.ts"
import { idOf, workspaceFlag } from "./Flags.ts"
import { afterFlag, limitFlag, listingOf, reportListing } from "./Listing.ts"
import { operator } from "./OperatorActor.ts"
import { OperatorError } from "./OperatorError.ts"
import { report } from "./Output.ts"
import { requireWorkspace } from "./WorkspaceCommands.ts"

/**
 * Connects (or reconnects) the workspace's store; audited. A Shopify store is checked first, with
 * one read of the Admin API with the token (`shop { name myshopifyDomain }`): a token Shopify
 * refuses, or one that opens another shop, is refused before anything is stored.
 */
export const connectStore = Effect.fn("connectStore")(function* (
  workspaceId: WorkspaceId,
  platform: StorePlatform,
  shop: string | null,
  credentials: Redacted.Redacted<string> | null
) {
  yield* requireWorkspace(workspaceId)
  return yield* StoreConnections.use((stores) =>
    stores.connect(workspaceId, { platform, shop, accessToken: credentials }, operator)
  ).pipe(
    Effect.catchTags({
      StoreConnectionRefused: (refused) =>
        new OperatorError(
          refused.unavailable
            ? { message: `could not check the connection, try again: ${refused.message}`, kind: "unavailable" }
            : { message: `Shopify refused the connection: ${refused.message}` }
        ),
      InvalidInput: (invalid) => new OperatorError({ message: `${invalid.path}: ${invalid.message}`, kind: "usage" })
    })
  )
})

/** A store connection as marginctl shows it: never its credentials (the port does not read them back). */
const connectionJson = (connection: StoreConnection) => ({
  workspace_id: connection.workspaceId,
  platform: connection.platform,
  shop: connection.shop,
  status: connection.status,
  connected_at: toIso(connection.connectedAt)
})

/** The shop's myshopify domain, refused with the reason before any call (the check's own rule). */
const ShopDomain = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter((shop: string) =>
      Result.match(requireMyshopifyDomain(shop), { onSuccess: () => undefined, onFailure: (reason) => reason })
    )
  )
)

const connect = Command.make(
  "connect",
  {
    workspace: workspaceFlag,
    platform: Flag.Literals("platform", StorePlatform.literals),
    shop: Flag.String("shop").pipe(
      Flag.withDescription("Shopify: the shop's myshopify domain, e.g. acme.myshopify.com (checked with the token)"),
      Flag.withSchema(ShopDomain),
      Flag.optional
    ),
    accessToken: Flag.Redacted("access-token").pipe(
      Flag.withDescription("Shopify: the Admin API access token (stored encrypted)"),
      Flag.optional
    )
  },
  Effect.fn(function* ({ workspace, platform, shop, accessToken }) {
    if (platform === "shopify" && (Option.isNone(shop) || Option.isNone(accessToken))) {
      return yield* new OperatorError({
        message: "a shopify store needs --shop DOMAIN and --access-token SECRET",
        kind: "usage"
      })
    }
    if (platform === "sandbox" && (Option.isSome(shop) || Option.isSome(accessToken))) {
      return yield* new OperatorError({ message: "the sandbox store takes no --shop or --access-token", kind: "usage" })
    }
    const { connection, variants, shopName } = yield* connectStore(
      workspace,
      platform,
      Option.getOrNull(shop),
      Option.getOrNull(accessToken)
    )
    yield* report(
      { ...connectionJson(connection), shop_name: shopName, sandbox_variants: variants },
      (r) =>
        `Connected ${r.workspace_id} to ${r.platform === "shopify" ? `Shopify ${r.shop} ("${r.shop_name}"; checked with the token)` : "the sandbox store"}${r.sandbox_variants === null ? "" : `; copied ${r.sandbox_variants} catalog prices into it`}`
    )
  })
).pipe(
  Command.withDescription(
    "Connect a workspace's store (Shopify: checked with one read first; sandbox: copies the catalog prices into it)"
  ),
  Command.withExamples([
    {
      command: "marginctl store connect --workspace ws_01jh8x --platform sandbox --json",
      description: "The sandbox store, for demos and tests"
    },
    {
      command:
        "marginctl store connect --workspace ws_01jh8x --platform shopify --shop acme.myshopify.com --access-token shpat_x",
      description: "A Shopify store"
    }
  ])
)

const disconnect = Command.make(
  "disconnect",
  { workspace: workspaceFlag },
  Effect.fn(function* ({ workspace: workspaceId }) {
    const disconnected = yield* StoreConnections.use((stores) => stores.disconnect(workspaceId, operator))
    yield* report({ workspace_id: workspaceId, disconnected }, (r) =>
      r.disconnected ? `Disconnected the store of ${r.workspace_id}` : `${r.workspace_id} had no connected store`
    )
  })
).pipe(
  Command.withDescription("Disconnect a workspace's store"),
  Command.withExamples([{ command: "marginctl store disconnect --workspace ws_01jh8x" }])
)

const writes = Command.make(
  "writes",
  { workspace: workspaceFlag },
  Effect.fn(function* ({ workspace: workspaceId }) {
    yield* requireWorkspace(workspaceId)
    const received = yield* PgSandboxStore.listWrites(workspaceId)
    yield* report(
      {
        workspace_id: workspaceId,
        writes: received.map((write) => ({
          id: write.id,
          variant_ref: write.variantRef,
          old_price: write.oldPrice,
          new_price: write.newPrice,
          idempotency_key: write.idempotencyKey,
          written_at: toIso(write.writtenAt)
        }))
      },
      (r) =>
        r.writes.length === 0
          ? `The sandbox store of ${r.workspace_id} has received no price writes`
          : [
              `${r.writes.length} price write${r.writes.length === 1 ? "" : "s"} to the sandbox store of ${r.workspace_id} (minor units):`,
              ...r.writes.map(
                (w) => `  ${w.written_at}  ${w.variant_ref}  ${w.old_price} -> ${w.new_price}  (${w.idempotency_key})`
              )
            ].join("\n")
    )
  })
).pipe(
  Command.withDescription("List every price write the sandbox store received"),
  Command.withExamples([{ command: "marginctl store writes --workspace ws_01jh8x --json" }])
)

/** The workspace's store connection, connected or not, or a failure saying it has none. */
const requireConnection = Effect.fn("requireConnection")(function* (workspaceId: WorkspaceId) {
  yield* requireWorkspace(workspaceId)
  const found = yield* StoreConnectionRepository.use((stores) => stores.get(workspaceId))
  if (Option.isNone(found)) return yield* new ResourceNotFound({ resource: "store connection of", id: workspaceId })
  return found.value
})

const list = Command.make(
  "list",
  {
    status: Flag.Literals("status", StoreConnectionStatus.literals).pipe(
      Flag.withDescription("Only the connections in this status"),
      Flag.optional
    ),
    limit: limitFlag,
    after: afterFlag("ws", "workspace")
  },
  Effect.fn(function* ({ status, limit, after }) {
    const cursor = Option.isSome(after)
      ? yield* Effect.map(requireConnection(WorkspaceId.make(after.value)), (connection) => ({
          createdAt: connection.connectedAt,
          id: connection.workspaceId
        }))
      : null
    const page = yield* StoreConnectionRepository.use((stores) =>
      stores.list({ status: Option.getOrNull(status) }, { limit, cursor })
    )
    yield* reportListing(
      listingOf(page, connectionJson, (connection) => connection.workspaceId),
      [
        ["WORKSPACE", (c) => c.workspace_id],
        ["PLATFORM", (c) => c.platform],
        ["SHOP", (c) => c.shop],
        ["STATUS", (c) => c.status],
        ["CONNECTED", (c) => c.connected_at]
      ],
      Option.isSome(status) ? `No store connection is ${status.value}` : "No workspace has connected a store"
    )
  })
).pipe(
  Command.withDescription(
    "List the workspaces' store connections (never their credentials), last connected first, a page at a time"
  ),
  Command.withExamples([
    { command: "marginctl store list" },
    { command: "marginctl store list --status connected --json", description: "The connected stores, as a JSON array" }
  ])
)

const show = Command.make(
  "show",
  { workspace: workspaceFlag },
  Effect.fn(function* ({ workspace }) {
    yield* report(connectionJson(yield* requireConnection(workspace)), (c) =>
      details([
        ["workspace", c.workspace_id],
        ["platform", c.platform],
        ["shop", c.shop],
        ["status", c.status],
        ["connected", c.connected_at]
      ])
    )
  })
).pipe(
  Command.withDescription(
    "Show a workspace's store connection (never its credentials); exits 3 when the workspace never connected one"
  ),
  Command.withExamples([{ command: "marginctl store show --workspace ws_01jh8x --json" }])
)

/** The store sync's report as marginctl and the API show it. */
const syncReportJson = (workspaceId: WorkspaceId, report: StoreSyncReport) => ({
  workspace_id: workspaceId,
  trigger: report.trigger,
  full: report.full,
  started_at: toIso(report.startedAt),
  finished_at: toIso(report.finishedAt),
  ...catalogImportSummaryJson(report.summary),
  sales:
    report.sales === undefined
      ? null
      : {
          order_lines: report.sales.lines,
          order_lines_left_out: report.sales.linesLeftOut,
          items_updated: report.sales.itemsUpdated,
          items_unchanged: report.sales.itemsUnchanged,
          skus_not_in_catalog: report.sales.skusNotInCatalog
        }
})

const sync = Command.make(
  "sync",
  { workspace: workspaceFlag },
  Effect.fn(function* ({ workspace: workspaceId }) {
    yield* requireWorkspace(workspaceId)
    const done = yield* StoreSyncs.use((syncs) =>
      syncs.sync({ workspaceId, trigger: "manual", actor: { _tag: "SystemActor", name: "marginctl" } })
    )
    yield* report(syncReportJson(workspaceId, done), (r) =>
      [
        `Synced ${r.workspace_id} from its store (${r.full ? "full read" : "changes since the last sync"}): ` +
          `${r.created} created, ${r.updated} updated (${r.price_changed} price, ${r.cost_changed} cost, ` +
          `${r.other_changed} other), ${r.unchanged} unchanged, ${r.rejected_total} rejected`,
        ...(r.stale_price > 0
          ? [`  ${r.stale_price} variant${r.stale_price === 1 ? "" : "s"} kept the item's newer price (stale_price)`]
          : []),
        ...r.rejected.map((rejected) => `  variant ${rejected.line}: ${rejected.error}`),
        ...(r.sales === null
          ? []
          : [
              `Orders: ${r.sales.order_lines} order lines read (${r.sales.order_lines_left_out} left out), ` +
                `units sold of ${r.sales.items_updated} items updated, ${r.sales.items_unchanged} unchanged` +
                (r.sales.skus_not_in_catalog > 0 ? `, ${r.sales.skus_not_in_catalog} skus sold not in the catalog` : "")
            ])
      ].join("\n")
    )
  })
).pipe(
  Command.withDescription(
    "Bring the catalog in line with the connected store now: its variants, then its orders as units sold and price history (first a full read, then the changes since); never writes to the store"
  ),
  Command.withExamples([{ command: "marginctl store sync --workspace ws_01jh8x --json" }])
)

/** A workspace's sync schedule as marginctl shows it. */
const scheduleJson = (view: ScheduleView) => ({
  workspace_id: view.schedule.workspaceId,
  cadence: view.schedule.cadence,
  weekday: view.schedule.weekday,
  hour: view.schedule.hour,
  time_zone: view.schedule.timeZone,
  run_after_sync: view.schedule.runAfterSync,
  next_slot_at: view.nextSlotAt === null ? null : toIso(view.nextSlotAt),
  updated_at: view.schedule.updatedAt === 0 ? null : toIso(view.schedule.updatedAt),
  updated_by: view.schedule.updatedAt === 0 ? null : view.schedule.updatedBy
})

const schedule = Command.make(
  "schedule",
  {
    workspace: workspaceFlag,
    cadence: Flag.Literals("cadence", Cadence.literals).pipe(
      Flag.withDescription("off, daily or weekly; without it the schedule is shown, not changed"),
      Flag.optional
    ),
    day: Flag.Literals("day", weekdays).pipe(Flag.withDescription("weekly: the day of the week"), Flag.optional),
    hour: Flag.Int("hour").pipe(
      Flag.withDescription("the hour of the day, 0 to 23, on the zone's clock"),
      Flag.optional
    ),
    timeZone: Flag.String("time-zone").pipe(
      Flag.withDescription("the workspace's IANA time zone, e.g. Europe/Berlin (default: as set, else UTC)"),
      Flag.optional
    ),
    runAfterSync: Flag.Literals("run-after-sync", ["true", "false"]).pipe(
      Flag.withDescription("queue a run (trigger schedule) after each scheduled sync (default: as set, else true)"),
      Flag.optional
    )
  },
  Effect.fn(function* ({ workspace: workspaceId, cadence, day, hour, timeZone, runAfterSync }) {
    yield* requireWorkspace(workspaceId)
    const current = yield* SyncSchedules.use((schedules) => schedules.get(workspaceId))
    const changes = Option.isSome(day) || Option.isSome(hour) || Option.isSome(timeZone) || Option.isSome(runAfterSync)
    if (Option.isNone(cadence) && changes) {
      return yield* new OperatorError({
        message: "say the --cadence (off, daily, weekly) to change the schedule",
        kind: "usage"
      })
    }
    const view = Option.isNone(cadence)
      ? current
      : yield* SyncSchedules.use((schedules) =>
          schedules.set(
            workspaceId,
            {
              cadence: cadence.value,
              weekday:
                cadence.value === "weekly" ? Option.getOrElse(day, () => current.schedule.weekday ?? "monday") : null,
              hour: Option.getOrElse(hour, () => current.schedule.hour),
              timeZone: Option.getOrElse(timeZone, () => current.schedule.timeZone),
              runAfterSync: Option.match(runAfterSync, {
                onNone: () => current.schedule.runAfterSync,
                onSome: (text) => text === "true"
              })
            },
            { _tag: "SystemActor", name: "marginctl" }
          )
        ).pipe(
          Effect.catchTag("InvalidInput", (invalid) => new OperatorError({ message: invalid.message, kind: "usage" }))
        )
    yield* report(scheduleJson(view), (r) =>
      details([
        ["workspace", r.workspace_id],
        [
          "schedule",
          r.cadence === "off"
            ? "off (the store syncs only when asked)"
            : `${r.cadence === "weekly" ? `every ${r.weekday}` : "every day"} at ${String(r.hour).padStart(2, "0")}:00 ${r.time_zone}`
        ],
        ["run after sync", r.run_after_sync ? "yes" : "no"],
        ["next slot", r.next_slot_at ?? "none"],
        ["updated", r.updated_at === null ? "never set" : `${r.updated_at} by ${r.updated_by}`]
      ])
    )
  })
).pipe(
  Command.withDescription(
    "Show or set a workspace's store sync schedule: off, daily or weekly at an hour in its time zone, then a run"
  ),
  Command.withExamples([
    { command: "marginctl store schedule --workspace ws_01jh8x --json", description: "Show it" },
    {
      command:
        "marginctl store schedule --workspace ws_01jh8x --cadence weekly --day monday --hour 6 --time-zone Europe/Berlin",
      description: "Mondays at 06:00 Berlin time, then a run"
    },
    { command: "marginctl store schedule --workspace ws_01jh8x --cadence off", description: "Only on demand" }
  ])
)

const cancelWriteBack = Command.make(
  "cancel-write-back",
  {
    workspace: workspaceFlag,
    recommendation: Flag.String("recommendation").pipe(
      Flag.withDescription("The approved recommendation (rec_…) whose write-back is still pending"),
      Flag.withSchema(idOf("rec").pipe(Schema.decodeTo(RecommendationId)))
    ),
    by: Flag.String("by").pipe(
      Flag.withDescription("The member who asks for it (usr_…): an admin or the owner; recorded as the actor"),
      Flag.withSchema(idOf("usr").pipe(Schema.decodeTo(UserId)))
    )
  },
  Effect.fn(function* ({ workspace: workspaceId, recommendation, by }) {
    yield* requireWorkspace(workspaceId)
    const membership = yield* MembershipRepository.use((memberships) => memberships.get(workspaceId, by))
    const role = Option.getOrNull(Option.map(membership, (member) => member.role))
    const cancelled = yield* WriteBackCancellation.use((cancellation) =>
      cancellation.cancel(workspaceId, recommendation, { _tag: "SessionActor", userId: by }, role)
    ).pipe(
      Effect.catchTag(
        "ForbiddenRole",
        () =>
          new OperatorError({
            message: `${by} ${role === null ? "is not a member of the workspace" : `has the role ${role}`}: cancelling a write-back needs an admin or the owner`
          })
      )
    )
    yield* report(
      {
        workspace_id: workspaceId,
        recommendation_id: recommendation,
        status: cancelled.recommendation.status,
        idempotent: cancelled.idempotent
      },
      (r) =>
        r.idempotent
          ? `The write-back of ${r.recommendation_id} was already cancelled`
          : `Cancelled the write-back of ${r.recommendation_id}: it will not be delivered; the recommendation is ${r.status}`
    )
  })
).pipe(
  Command.withDescription(
    "Cancel the pending write-back of an approved recommendation (an admin or the owner asks; audited): it is never delivered"
  ),
  Command.withExamples([
    { command: "marginctl store cancel-write-back --workspace ws_01jh8x --recommendation rec_01jh9a --by usr_01jh8y" }
  ])
)

export const storeCommand = Command.make("store").pipe(
  Command.withDescription(
    "Connect, disconnect, list and show stores; sync a catalog from its store, now or on a schedule; inspect the sandbox store"
  ),
  Command.withExamples([
    { command: "marginctl store connect --workspace ws_01jh8x --platform sandbox" },
    { command: "marginctl store list --status connected" }
  ]),
  Command.withSubcommands([
    onDatabase(connect),
    onDatabase(disconnect),
    onDatabase(list),
    onDatabase(show),
    onDatabase(sync),
    onDatabase(schedule),
    onDatabase(writes),
    onDatabase(cancelWriteBack)
  ])
)
