import { mayDecide, mayTriage, type Role } from "@margin/core/access/Role"
import { RuleCode } from "@margin/core/pricing/PriceRecommendation"
import { type Recommendation, recommendationStatuses } from "@margin/core/recommendations/Recommendation"
import { consolePage, escapeHtml, type PageContext } from "./ConsolePage.ts"
import { money, percent, statusWords } from "./RecommendationFormat.ts"

/** The queue's filters as the form sends them (empty: no filter). */
export interface QueueFilters {
  readonly status: string
  readonly run: string
  readonly tag: string
  readonly rule: string
  readonly sku: string
}

/**
 * What the queue lists of the page it read: the SKU search (case-insensitive, a part of the SKU)
 * and the order, largest expected monthly impact first.
 */
export const queueOf = (items: ReadonlyArray<Recommendation>, sku: string): ReadonlyArray<Recommendation> => {
  const needle = sku.trim().toLowerCase()
  return items
    .filter((item) => needle === "" || item.sku.toLowerCase().includes(needle))
    .toSorted((a, b) => b.expectedMonthlyImpact - a.expectedMonthlyImpact || a.id.localeCompare(b.id))
}

const option = (value: string, label: string, selected: string) =>
  `<option value="${escapeHtml(value)}"${value === selected ? " selected" : ""}>${escapeHtml(label)}</option>`

const filterForm = (
  base: string,
  filters: QueueFilters
) => `<form method="get" action="${escapeHtml(base)}" class="filters" role="search" aria-label="Filter recommendations">
<p><label for="status">Status</label>
<select id="status" name="status">${option("", "Any", filters.status)}${recommendationStatuses.map((status) => option(status, statusWords(status), filters.status)).join("")}</select></p>
<p><label for="run">Run id</label>
<input id="run" name="run_id" value="${escapeHtml(filters.run)}" placeholder="run_…" autocomplete="off"></p>
<p><label for="tag">Tag</label>
<input id="tag" name="tag" value="${escapeHtml(filters.tag)}" autocomplete="off"></p>
<p><label for="rule">Rule</label>
<select id="rule" name="rule">${option("", "Any", filters.rule)}${RuleCode.literals.map((rule) => option(rule, statusWords(rule), filters.rule)).join("")}</select></p>
<p><label for="sku">SKU contains</label>
<input id="sku" name="sku" type="search" value="${escapeHtml(filters.sku)}" autocomplete="off"></p>
<p><button type="submit">Filter</button></p>
</form>`

/** The per-row button: the next step the person may take on it, posted with the bulk form's token. */
const rowAction = (base: string, item: Recommendation, role: Role): string => {
  const button = (action: string, label: string) =>
    `<button type="submit" formaction="${escapeHtml(`${base}/${item.id}/${action}`)}" aria-label="${escapeHtml(`${label} ${item.sku}`)}">${label}</button>`
  if (item.status === "new" && mayTriage(role)) return button("accept", "Accept")
  if (item.status === "pending_approval" && mayDecide(role)) return button("approve", "Approve")
  return ""
}

const bulkControls = (role: Role): string => {
  const buttons = [
    mayTriage(role) ? '<button type="submit" name="action" value="accept">Accept selected</button>' : "",
    mayDecide(role) ? '<button type="submit" name="action" value="approve">Approve selected</button>' : "",
    mayDecide(role) ? '<button type="submit" name="action" value="reject">Reject selected</button>' : "",
    mayTriage(role) ? '<button type="submit" name="action" value="dismiss">Dismiss selected</button>' : ""
  ].join("\n")
  return mayTriage(role)
    ? `<fieldset class="bulk"><legend>With the selected recommendations</legend>
${mayDecide(role) ? '<p><label for="reason">Reason (for reject)</label> <input id="reason" name="reason" maxlength="1000"></p>' : ""}
<p class="buttons">${buttons}</p></fieldset>`
    : ""
}

export const queuePage = (input: {
  readonly context: PageContext
  readonly workspaceId: string
  readonly role: Role
  readonly filters: QueueFilters
  readonly items: ReadonlyArray<Recommendation>
  /** More matched the filters than one read holds: the SKU search saw only these. */
  readonly truncated: boolean
  /** Why the filters were refused (the same rules as the API's), or null. */
  readonly error: string | null
}) => {
  const base = `/app/w/${encodeURIComponent(input.workspaceId)}/recommendations`
  const selectable = mayTriage(input.role)
  const rows = input.items
    .map(
      (item) => `<tr>
${selectable ? `<td><input type="checkbox" name="id" value="${escapeHtml(item.id)}" id="select-${escapeHtml(item.id)}" aria-label="${escapeHtml(`Select ${item.sku}`)}"></td>` : ""}
<th scope="row"><a href="${escapeHtml(`${base}/${item.id}`)}">${escapeHtml(item.sku)}</a></th>
<td class="num">${money(item, item.currentPrice)}</td>
<td class="num">${money(item, item.recommendedPrice)}</td>
<td class="num">${money(item, item.expectedMonthlyImpact)}</td>
<td class="num">${percent(item.projectedMargin)}</td>
<td><span class="status status-${escapeHtml(item.status)}">${escapeHtml(statusWords(item.status))}</span></td>
<td>${rowAction(base, item, input.role)}</td>
</tr>`
    )
    .join("\n")
  const table =
    input.error !== null
      ? `<p role="alert">Those filters were refused: ${escapeHtml(input.error)}</p>`
      : input.items.length === 0
        ? '<p class="empty">No recommendation matches these filters.</p>'
        : `<form method="post" action="${escapeHtml(`${base}/bulk`)}" class="queue">
<input type="hidden" name="csrf" value="${escapeHtml(input.context.csrf)}">
${bulkControls(input.role)}
<table>
<caption>${input.items.length} recommendation${input.items.length === 1 ? "" : "s"}, largest expected monthly impact first</caption>
<thead><tr>${selectable ? '<th scope="col"><span class="visually-hidden">Select</span></th>' : ""}<th scope="col">SKU</th><th scope="col">Current price</th><th scope="col">Recommended</th><th scope="col">Expected monthly impact</th><th scope="col">Projected margin</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</form>`
  return consolePage({
    status: input.error === null ? 200 : 400,
    title: "Recommendations",
    context: input.context,
    body: `${filterForm(base, input.filters)}
${input.truncated ? '<p class="notice">Only the 200 newest recommendations matching the status, run, tag and rule filters are searched and sorted: narrow the filters to see the others.</p>' : ""}
${table}`
  })
}
