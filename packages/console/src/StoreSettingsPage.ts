import { weekdays } from "@margin/core/schedules/SyncSchedule"
import type { ScheduleView } from "@margin/core/schedules/SyncSchedules"
import type { StoreConnection } from "@margin/core/stores/StoreConnection"
import type { StoreSyncJob } from "@margin/core/stores/StoreSyncJob"
import { consolePage, escapeHtml, type PageContext } from "./ConsolePage.ts"
import { when } from "./RecommendationFormat.ts"

/** The schedule form's values and error, when a save was refused. */
export interface ScheduleFormState {
  readonly cadence: string
  readonly weekday: string
  readonly hour: string
  readonly timeZone: string
  readonly runAfterSync: boolean
  readonly error: string | null
}

export const scheduleFormOf = (view: ScheduleView): ScheduleFormState => ({
  cadence: view.schedule.cadence,
  weekday: view.schedule.weekday ?? "monday",
  hour: String(view.schedule.hour),
  timeZone: view.schedule.timeZone,
  runAfterSync: view.schedule.runAfterSync,
  error: null
})

const hidden = (csrf: string) => `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`

const option = (value: string, label: string, selected: string) =>
  `<option value="${escapeHtml(value)}"${value === selected ? " selected" : ""}>${escapeHtml(label)}</option>`

/** The connect form's values (never the token) and error, when a connect was refused. */
export interface ConnectFormState {
  readonly platform: string
  readonly shop: string
  readonly error: string | null
}

export const emptyConnectForm: ConnectFormState = { platform: "sandbox", shop: "", error: null }

const connectForm = (base: string, csrf: string, form: ConnectFormState, connected: boolean) =>
  `<form method="post" action="${escapeHtml(`${base}/connect`)}" class="connect">${hidden(csrf)}
<h3>${connected ? "Connect another store" : "Connect a store"}</h3>
${form.error === null ? "" : `<p role="alert" class="error" id="connect-error">${escapeHtml(form.error)}</p>`}
<p><label for="platform">Platform</label><br>
<select id="platform" name="platform">${option("sandbox", "Sandbox store (demo)", form.platform)}${option("shopify", "Shopify", form.platform)}</select></p>
<p><label for="shop">Shopify: the shop's myshopify domain</label><br>
<input id="shop" name="shop" placeholder="acme.myshopify.com" autocomplete="off" value="${escapeHtml(form.shop)}"${form.error === null ? "" : ' aria-describedby="connect-error"'}></p>
<p><label for="access-token">Shopify: Admin API access token (checked with Shopify, then stored encrypted)</label><br>
<input id="access-token" name="access_token" type="password" autocomplete="off"></p>
<p><button type="submit">Connect</button></p>
</form>`

const connectionSection = (base: string, csrf: string, connection: StoreConnection | null, form: ConnectFormState) =>
  `<section aria-labelledby="connection-heading"><h2 id="connection-heading">Connection</h2>
${
  connection === null
    ? "<p>No store is connected.</p>"
    : `<dl class="connection">
<dt>Platform</dt><dd>${escapeHtml(connection.platform === "shopify" ? "Shopify" : "Sandbox store")}</dd>
${connection.shop === null ? "" : `<dt>Shop</dt><dd>${escapeHtml(connection.shop)}</dd>`}
<dt>Status</dt><dd id="connection-status">${escapeHtml(connection.status)}</dd>
<dt>Connected</dt><dd>${escapeHtml(when(connection.connectedAt))}</dd>
</dl>${
        connection.status === "connected"
          ? `<form method="post" action="${escapeHtml(`${base}/disconnect`)}">${hidden(csrf)}
<p><button type="submit">Disconnect the store</button> Approved prices are then no longer written to it, and it is no longer synced.</p></form>`
          : ""
      }`
}
${connectForm(base, csrf, form, connection?.status === "connected")}</section>`

const syncSummary = (job: StoreSyncJob) => {
  const report = job.report
  if (job.status === "failed") return `Failed: ${job.error ?? "unknown reason"}`
  if (report === null) return job.status === "queued" ? "Waiting for a worker." : "Reading the store."
  const s = report.summary
  return `${report.full ? "Full read" : "Changes since the last sync"}: ${s.created} created, ${s.updated} updated (${s.priceChanged} price, ${s.costChanged} cost, ${s.otherChanged} other), ${s.unchanged} unchanged, ${s.rejectedTotal} rejected.${job.runId === null ? "" : ` Run ${job.runId} queued after it.`}${job.runRefused === null ? "" : ` No run: ${job.runRefused}.`}`
}

const syncSection = (base: string, csrf: string, connected: boolean, latest: StoreSyncJob | null) =>
  `<section aria-labelledby="sync-heading"><h2 id="sync-heading">Sync</h2>
${
  latest === null
    ? "<p>The store has not been synced from here yet.</p>"
    : `<p id="sync-state" data-status="${escapeHtml(latest.status)}">Last sync (${escapeHtml(latest.trigger === "schedule" ? "scheduled" : "asked for")}, ${escapeHtml(when(latest.createdAt))}): <strong>${escapeHtml(latest.status)}</strong>. ${escapeHtml(syncSummary(latest))}</p>`
}
${
  connected
    ? `<form method="post" action="${escapeHtml(`${base}/sync`)}">${hidden(csrf)}<p><button type="submit">Sync now</button> Reads the store (never writes to it) and updates the catalog.</p></form>`
    : "<p>Connect a store to sync it.</p>"
}</section>`

const scheduleSection = (base: string, csrf: string, view: ScheduleView, form: ScheduleFormState) =>
  `<section aria-labelledby="schedule-heading"><h2 id="schedule-heading">Schedule</h2>
<p id="next-slot">${
    view.nextSlotAt === null
      ? "The store syncs only when asked."
      : `Next sync: ${escapeHtml(when(view.nextSlotAt))} (${escapeHtml(view.schedule.timeZone)} ${String(view.schedule.hour).padStart(2, "0")}:00).`
  }</p>
${form.error === null ? "" : `<p role="alert" class="error" id="schedule-error">${escapeHtml(form.error)}</p>`}
<form method="post" action="${escapeHtml(`${base}/schedule`)}" class="schedule">${hidden(csrf)}
<p><label for="cadence">Sync by itself</label><br>
<select id="cadence" name="cadence">${option("off", "Off", form.cadence)}${option("daily", "Every day", form.cadence)}${option("weekly", "Once a week", form.cadence)}</select></p>
<p><label for="weekday">Day of the week (weekly)</label><br>
<select id="weekday" name="weekday">${weekdays.map((day) => option(day, day[0]?.toUpperCase() + day.slice(1), form.weekday)).join("")}</select></p>
<p><label for="hour">Hour (0 to 23)</label><br>
<input id="hour" name="hour" inputmode="numeric" pattern="[0-9]*" required value="${escapeHtml(form.hour)}"></p>
<p><label for="time-zone">Time zone (IANA, e.g. Europe/Berlin)</label><br>
<input id="time-zone" name="time_zone" required value="${escapeHtml(form.timeZone)}" autocomplete="off"${form.error === null ? "" : ' aria-describedby="schedule-error"'}></p>
<p><label><input type="checkbox" name="run_after_sync" value="true"${form.runAfterSync ? " checked" : ""}> Run an analysis after each scheduled sync</label></p>
<p><button type="submit">Save schedule</button></p>
</form></section>`

/** The Store settings page (admin, owner): the connection (connect, disconnect), Sync now with the last sync's state, the schedule. */
export const storeSettingsPage = (input: {
  readonly context: PageContext
  readonly workspaceId: string
  readonly connection: StoreConnection | null
  readonly latest: StoreSyncJob | null
  readonly schedule: ScheduleView
  readonly form: ScheduleFormState
  readonly connectForm: ConnectFormState
  readonly notice: string | null
  readonly status?: number
}) => {
  const base = `/app/w/${encodeURIComponent(input.workspaceId)}/settings/store`
  const csrf = input.context.csrf
  return consolePage({
    ...(input.status === undefined ? {} : { status: input.status }),
    title: "Store",
    context: input.context,
    body: `${input.notice === null ? "" : `<p class="notice" role="status">${escapeHtml(input.notice)}</p>`}
${connectionSection(base, csrf, input.connection, input.connectForm)}
${syncSection(base, csrf, input.connection?.status === "connected", input.latest)}
${scheduleSection(base, csrf, input.schedule, input.form)}`
  })
}
