import { type Alert, alertStatuses } from "@margin/core/alerts/Alert"
import { AlertKind } from "@margin/core/alerts/AlertFinding"
import { consolePage, escapeHtml, type PageContext } from "./ConsolePage.ts"
import { pagerLinks } from "./PagerLinks.ts"
import { statusWords, when } from "./RecommendationFormat.ts"

/** The list's filters as the form sends them (empty: no filter). */
export interface AlertFilters {
  readonly status: string
  readonly kind: string
}

const option = (value: string, label: string, selected: string) =>
  `<option value="${escapeHtml(value)}"${value === selected ? " selected" : ""}>${escapeHtml(label)}</option>`

const filterForm = (base: string, filters: AlertFilters) =>
  `<form method="get" action="${escapeHtml(base)}" class="filters" role="search" aria-label="Filter alerts">
<p><label for="status">Status</label>
<select id="status" name="status">${option("", "Any", filters.status)}${alertStatuses.map((status) => option(status, statusWords(status), filters.status)).join("")}</select></p>
<p><label for="kind">Kind</label>
<select id="kind" name="kind">${option("", "Any", filters.kind)}${AlertKind.literals.map((kind) => option(kind, statusWords(kind), filters.kind)).join("")}</select></p>
<p><button type="submit">Filter</button></p>
</form>`

/** The actions on an open or snoozed alert: snooze until a day (with a reason), resolve, dismiss. */
const actions = (base: string, alert: Alert, csrf: string, today: string): string => {
  if (alert.status !== "open" && alert.status !== "snoozed") return ""
  const id = escapeHtml(alert.id)
  const token = `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`
  const action = (name: string) => escapeHtml(`${base}/${alert.id}/${name}`)
  return `<div class="actions">
<form method="post" action="${action("snooze")}" class="action snooze">
${token}
<p><label for="snooze-until-${id}">Snooze until</label>
<input type="date" id="snooze-until-${id}" name="snooze_until" min="${escapeHtml(today)}" required></p>
<p><label for="snooze-reason-${id}">Reason</label>
<input id="snooze-reason-${id}" name="reason" maxlength="1000" required></p>
<p><button type="submit" aria-label="Snooze alert ${id}">Snooze</button></p>
</form>
<form method="post" action="${action("resolve")}" class="action">${token}<button type="submit" aria-label="Resolve alert ${id}">Resolve</button></form>
<form method="post" action="${action("dismiss")}" class="action">${token}<button type="submit" aria-label="Dismiss alert ${id}">Dismiss</button></form>
</div>`
}

const statusCell = (alert: Alert): string => {
  const words = `<span class="status status-${escapeHtml(alert.status)}">${escapeHtml(statusWords(alert.status))}</span>`
  if (alert.status !== "snoozed") return words
  return `${words} until ${escapeHtml(when(alert.snoozedUntil))}${alert.snoozeReason === null ? "" : `: ${escapeHtml(alert.snoozeReason)}`}`
}

/** The alerts of the workspace, newest first, filtered; actions for those whose role may write alerts. */
export const alertsPage = (input: {
  readonly context: PageContext
  readonly workspaceId: string
  readonly mayAct: boolean
  readonly filters: AlertFilters
  readonly alerts: ReadonlyArray<Alert>
  readonly cursor: string | null
  readonly nextCursor: string | null
  /** Today (UTC, YYYY-MM-DD): the earliest day the date picker offers. */
  readonly today: string
  readonly notice: string | null
}) => {
  const base = `/app/w/${encodeURIComponent(input.workspaceId)}/alerts`
  const query = new URLSearchParams(Object.entries(input.filters).filter(([, value]) => value !== ""))
  const items = input.alerts
    .map(
      (alert) => `<li class="alert severity-${escapeHtml(alert.severity)}" id="alert-${escapeHtml(alert.id)}">
<h2 class="alert-title"><span class="severity">${escapeHtml(alert.severity)}</span> ${escapeHtml(statusWords(alert.kind))}</h2>
<p>${escapeHtml(alert.message)}</p>
<p class="meta">${statusCell(alert)} · raised ${escapeHtml(when(alert.createdAt))} · ${escapeHtml(alert.id)}</p>
${input.mayAct ? actions(base, alert, input.context.csrf, input.today) : ""}
</li>`
    )
    .join("\n")
  return consolePage({
    title: "Alerts",
    context: input.context,
    body: `${input.notice === null ? "" : `<p class="notice" role="status">${escapeHtml(input.notice)}</p>`}
${filterForm(base, input.filters)}
${input.alerts.length === 0 ? '<p class="empty">No alert matches these filters.</p>' : `<ul class="alerts" aria-label="Alerts, newest first">\n${items}\n</ul>`}
${pagerLinks(base, input.cursor, input.nextCursor, "alerts", query)}`
  })
}
