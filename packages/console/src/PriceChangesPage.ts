import { mayDecide, type Role } from "@margin/core/access/Role"
import type { PriceChange } from "@margin/core/writeback/PriceChanges"
import type { WriteBack } from "@margin/core/writeback/WriteBack"
import { consolePage, escapeHtml, type PageContext } from "./ConsolePage.ts"
import { pagerLinks } from "./PagerLinks.ts"
import { money, statusWords, when } from "./RecommendationFormat.ts"

/** A write-back the store has not answered yet: the page stays live while one is shown. */
const waiting = (writeBack: WriteBack | null): boolean =>
  writeBack !== null && (writeBack.status === "pending" || writeBack.status === "in_flight")

const result = (writeBack: WriteBack): string => {
  const words = `<span class="status status-${escapeHtml(writeBack.status)}">${escapeHtml(statusWords(writeBack.status))}</span>`
  if (writeBack.status === "applied") return `${words} ${escapeHtml(when(writeBack.appliedAt))}`
  if (writeBack.lastError !== null) return `${words}: ${escapeHtml(writeBack.lastError)}`
  return words
}

const undoCell = (base: string, change: PriceChange, role: Role, csrf: string): string => {
  const { recommendation, undo, writeBack } = change
  if (undo !== null) {
    return `Undo by ${escapeHtml(undo.undo?.by ?? "—")}, ${escapeHtml(when(undo.createdAt))}: ${result(undo)}`
  }
  if (writeBack.status !== "applied") return '<span class="empty">—</span>'
  if (!mayDecide(role)) return '<span class="empty">Approvers may undo</span>'
  const back = money(recommendation, writeBack.payload.oldPrice)
  return `<form method="post" action="${escapeHtml(`${base}/${recommendation.id}/undo`)}" class="action">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<button type="submit" aria-label="${escapeHtml(`Undo ${recommendation.sku}: back to ${back}`)}">Undo</button>
</form>`
}

/**
 * What changed: the prices the workspace's approvals wrote back, newest first, each with before and
 * after, who decided and when, the write-back's result, and its undo (a button for approvers and
 * above while the change is applied and not undone).
 */
export const priceChangesPage = (input: {
  readonly context: PageContext
  readonly workspaceId: string
  readonly role: Role
  readonly changes: ReadonlyArray<PriceChange>
  readonly cursor: string | null
  readonly nextCursor: string | null
  readonly notice: string | null
}) => {
  const base = `/app/w/${encodeURIComponent(input.workspaceId)}/changes`
  const recommendations = `/app/w/${encodeURIComponent(input.workspaceId)}/recommendations`
  const live = input.changes.some((change) => waiting(change.writeBack) || waiting(change.undo))
  const rows = input.changes
    .map((change) => {
      const { recommendation, writeBack } = change
      return `<tr>
<th scope="row"><a href="${escapeHtml(`${recommendations}/${recommendation.id}`)}">${escapeHtml(recommendation.sku)}</a></th>
<td class="num">${money(recommendation, writeBack.payload.oldPrice)} → ${money(recommendation, writeBack.payload.newPrice)}</td>
<td>${escapeHtml(recommendation.decidedBy ?? "—")}</td>
<td>${escapeHtml(when(recommendation.decidedAt))}</td>
<td>${result(writeBack)}</td>
<td>${undoCell(base, change, input.role, input.context.csrf)}</td>
</tr>`
    })
    .join("\n")
  const table =
    input.changes.length === 0
      ? '<p class="empty">No price change yet: approved recommendations show here once written back.</p>'
      : `<table id="price-changes" data-live="${live ? "on" : "off"}">
<caption>Price changes written back to the store, newest first</caption>
<thead><tr><th scope="col">SKU</th><th scope="col">Before → after</th><th scope="col">Decided by</th><th scope="col">Decided at</th><th scope="col">Write-back</th><th scope="col">Undo</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
  return consolePage({
    title: "What changed",
    context: input.context,
    scripts: ["live.js"],
    ...(live ? { refreshSeconds: 5 } : {}),
    body: `${input.notice === null ? "" : `<p class="notice" role="status">${escapeHtml(input.notice)}</p>`}
<p>An undo writes the previous price back to the store, once, and only while the item is still at the price the change applied.</p>
${table}
${pagerLinks(base, input.cursor, input.nextCursor, "changes")}`
  })
}
