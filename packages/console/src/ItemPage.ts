import type { ItemOverview } from "@margin/core/catalog/ItemOverviews"
import { itemMargin, itemMoney } from "./CatalogPage.ts"
import { consolePage, escapeHtml, type PageContext } from "./ConsolePage.ts"
import { money, statusWords, when } from "./RecommendationFormat.ts"

const row = (term: string, value: string) => `<dt>${escapeHtml(term)}</dt><dd>${value}</dd>`

/**
 * The price history as the chart reads it (a data attribute, no inline script): each observation's
 * price and the units sold at it, oldest first, then the current price and units.
 */
export const historySeries = (overview: ItemOverview) => {
  const item = overview.item
  const points = [...item.priceHistory, { price: item.price, units: item.unitsSold30d }]
  return { prices: points.map((point) => point.price), units: points.map((point) => point.units) }
}

const historySection = (overview: ItemOverview): string => {
  const item = overview.item
  const series = historySeries(overview)
  const rows = [
    ...item.priceHistory.map(
      (point, index) =>
        `<tr><th scope="row">${index + 1}</th><td class="num">${escapeHtml(itemMoney(item, point.price))}</td><td class="num">${point.units}</td><td class="num">${escapeHtml(itemMoney(item, point.competitorPrice ?? null))}</td></tr>`
    ),
    `<tr><th scope="row">Now</th><td class="num">${escapeHtml(itemMoney(item, item.price))}</td><td class="num">${item.unitsSold30d}</td><td class="num">${escapeHtml(itemMoney(item, item.competitorPrice))}</td></tr>`
  ]
  return `<section aria-labelledby="history-heading"><h2 id="history-heading">Price history</h2>
${
  item.priceHistory.length === 0
    ? "<p>No earlier price is known yet: the history grows as prices change.</p>"
    : `<figure class="chart">
<div id="history-chart" data-series="${escapeHtml(JSON.stringify(series))}" data-currency="${escapeHtml(item.currency)}"></div>
<figcaption>Each price the item sold at, oldest first, with the units sold in the 30 days at it; the last point is today's.</figcaption>
</figure>`
}
<table>
<caption>Observations, oldest first</caption>
<thead><tr><th scope="col">#</th><th scope="col">Price</th><th scope="col">Units, 30 days</th><th scope="col">Competitor price</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table>
</section>`
}

/** A section listing the item's newest rows of one kind: a table, or a line saying there are none. */
const listSection = (input: {
  readonly id: string
  readonly heading: string
  readonly empty: string
  readonly more: boolean
  readonly columns: ReadonlyArray<string>
  readonly rows: ReadonlyArray<string>
}): string => `<section aria-labelledby="${input.id}"><h2 id="${input.id}">${escapeHtml(input.heading)}</h2>
${
  input.rows.length === 0
    ? `<p class="empty">${escapeHtml(input.empty)}</p>`
    : `<table>
<caption>Newest first${input.more ? " (the latest ones)" : ""}</caption>
<thead><tr>${input.columns.map((column) => `<th scope="col">${escapeHtml(column)}</th>`).join("")}</tr></thead>
<tbody>
${input.rows.join("\n")}
</tbody>
</table>`
}
</section>`

const recommendationsSection = (base: string, overview: ItemOverview): string =>
  listSection({
    id: "item-recommendations-heading",
    heading: "Recommendations",
    empty: "No recommendation for this item yet.",
    more: overview.moreRecommendations,
    columns: ["Created", "Status", "Price", "Expected monthly impact", "Rule"],
    rows: overview.recommendations.map(
      (r) => `<tr>
<th scope="row"><a href="${escapeHtml(`${base}/recommendations/${encodeURIComponent(r.id)}`)}">${escapeHtml(when(r.createdAt))}</a></th>
<td><span class="status status-${escapeHtml(r.status)}">${escapeHtml(statusWords(r.status))}</span></td>
<td>${escapeHtml(money(r, r.currentPrice))} → ${escapeHtml(money(r, r.recommendedPrice))}</td>
<td class="num">${escapeHtml(money(r, r.expectedMonthlyImpact))}</td>
<td>${escapeHtml(r.rule)}</td>
</tr>`
    )
  })

const alertsSection = (overview: ItemOverview): string =>
  listSection({
    id: "item-alerts-heading",
    heading: "Alerts",
    empty: "No alert about this item.",
    more: overview.moreAlerts,
    columns: ["Raised", "Kind", "Severity", "Status", "Message"],
    rows: overview.alerts.map(
      (a) => `<tr>
<th scope="row">${escapeHtml(when(a.createdAt))}</th>
<td>${escapeHtml(statusWords(a.kind))}</td>
<td>${escapeHtml(a.severity)}</td>
<td>${escapeHtml(statusWords(a.status))}</td>
<td>${escapeHtml(a.message)}</td>
</tr>`
    )
  })

/** One catalog item: its facts, its price history (chart and table), its recommendations and alerts. */
export const itemPage = (input: {
  readonly context: PageContext
  readonly workspaceId: string
  readonly overview: ItemOverview
}) => {
  const item = input.overview.item
  const base = `/app/w/${encodeURIComponent(input.workspaceId)}`
  return consolePage({
    title: `Item ${item.sku}`,
    context: input.context,
    scripts: item.priceHistory.length === 0 ? [] : ["uplot.js", "chart.js"],
    styles: item.priceHistory.length === 0 ? [] : ["uplot.css"],
    body: `<p><a href="${escapeHtml(`${base}/catalog`)}">← Back to the catalog</a></p>
<section aria-labelledby="item-heading"><h2 id="item-heading">${escapeHtml(item.title)}</h2>
<dl class="facts">
${row("Price", escapeHtml(itemMoney(item, item.price)))}
${row("Cost", escapeHtml(itemMoney(item, item.cost)))}
${row("Margin", escapeHtml(itemMargin(item)))}
${row("Compare-at price", escapeHtml(itemMoney(item, item.compareAtPrice)))}
${row("Minimum price", escapeHtml(itemMoney(item, item.minPrice)))}
${row("Maximum price", escapeHtml(itemMoney(item, item.maxPrice)))}
${row("Competitor price", escapeHtml(itemMoney(item, item.competitorPrice)))}
${row("Units sold, 30 days", String(item.unitsSold30d))}
${row("Inventory", item.inventory === null ? "—" : String(item.inventory))}
${row("Tags", item.tags.length === 0 ? "—" : item.tags.map((tag) => `<span class="tag">${escapeHtml(tag)}</span>`).join(" "))}
${row("Price in force since", escapeHtml(when(item.priceSetAt)))}
</dl></section>
${historySection(input.overview)}
${recommendationsSection(base, input.overview)}
${alertsSection(input.overview)}`
  })
}
