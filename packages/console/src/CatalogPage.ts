import type { CatalogItem } from "@margin/core/catalog/CatalogItem"
import { formatMajorUnits } from "@margin/core/kernel/Money"
import { consolePage, escapeHtml, type PageContext } from "./ConsolePage.ts"

/** The catalog page's search as the form sends it (empty: no filter). */
export interface CatalogSearch {
  readonly sku: string
  readonly tag: string
}

/** An item's price or cost in its currency, or a dash when unknown. */
export const itemMoney = (item: CatalogItem, minor: number | null): string =>
  minor === null ? "—" : `${formatMajorUnits(minor, item.currency)} ${item.currency}`

/** The item's margin at its price, or a dash without a cost. */
export const itemMargin = (item: CatalogItem): string =>
  item.cost === null || item.price <= 0 ? "—" : `${(((item.price - item.cost) / item.price) * 100).toFixed(1)} %`

const searchForm = (
  base: string,
  search: CatalogSearch
) => `<form method="get" action="${escapeHtml(base)}" class="filters" role="search" aria-label="Search the catalog">
<p><label for="sku">SKU contains</label>
<input id="sku" name="sku" type="search" value="${escapeHtml(search.sku)}" maxlength="100" autocomplete="off"></p>
<p><label for="tag">Tag</label>
<input id="tag" name="tag" value="${escapeHtml(search.tag)}" autocomplete="off"></p>
<p><button type="submit">Search</button></p>
</form>`

const itemRow = (base: string, item: CatalogItem) => `<tr>
<th scope="row"><a href="${escapeHtml(`${base}/${encodeURIComponent(item.id)}`)}">${escapeHtml(item.sku)}</a></th>
<td>${escapeHtml(item.title)}</td>
<td class="num">${escapeHtml(itemMoney(item, item.price))}</td>
<td class="num">${escapeHtml(itemMoney(item, item.cost))}</td>
<td class="num">${escapeHtml(itemMargin(item))}</td>
<td class="num">${item.unitsSold30d}</td>
<td>${item.tags.map((tag) => `<span class="tag">${escapeHtml(tag)}</span>`).join(" ")}</td>
</tr>`

/** The catalog: a search by SKU and tag, newest items first, a page at a time. */
export const catalogPage = (input: {
  readonly context: PageContext
  readonly workspaceId: string
  readonly search: CatalogSearch
  readonly items: ReadonlyArray<CatalogItem>
  /** The next page's address, or null on the last page. */
  readonly next: string | null
  /** Why the search was refused (shown instead of results), or null. */
  readonly error: string | null
}) => {
  const base = `/app/w/${encodeURIComponent(input.workspaceId)}/catalog`
  const results =
    input.error !== null
      ? `<p role="alert">${escapeHtml(input.error)}</p>`
      : input.items.length === 0
        ? '<p class="empty">No item matches.</p>'
        : `<table>
<caption>Catalog items, newest first</caption>
<thead><tr><th scope="col">SKU</th><th scope="col">Title</th><th scope="col">Price</th><th scope="col">Cost</th><th scope="col">Margin</th><th scope="col">Units, 30 days</th><th scope="col">Tags</th></tr></thead>
<tbody>
${input.items.map((item) => itemRow(base, item)).join("\n")}
</tbody>
</table>
${input.next === null ? "" : `<p class="pager"><a href="${escapeHtml(input.next)}" rel="next">Next page</a></p>`}`
  return consolePage({
    status: input.error === null ? 200 : 400,
    title: "Catalog",
    context: input.context,
    body: `${searchForm(base, input.search)}
${results}`
  })
}
