import { consolePage, escapeHtml, type PageContext } from "./ConsolePage.ts"
import { type Action, type ActionOutcome, pastTense } from "./RecommendationActions.ts"
import { statusWords } from "./RecommendationFormat.ts"

/** One selected id and what its action came to. */
export interface BulkItem {
  readonly id: string
  /** The SKU, when the recommendation is one of the workspace's. */
  readonly sku: string | null
  readonly outcome: ActionOutcome
}

const outcomeCell = (action: Action, outcome: ActionOutcome): { readonly kind: string; readonly text: string } => {
  switch (outcome._tag) {
    case "Done":
      return {
        kind: "done",
        text: `${pastTense[action]}${outcome.writeBack === null ? "" : `; write-back ${statusWords(outcome.writeBack)}`}`
      }
    case "Repeat":
      return { kind: "repeat", text: `already ${pastTense[action]}: nothing changed (idempotent repeat)` }
    case "Refused":
      return { kind: outcome.status === 409 ? "conflict" : "refused", text: outcome.message }
  }
}

/** The outcome of a bulk action, one row per selected recommendation, in the order selected. */
export const bulkOutcomePage = (input: {
  readonly context: PageContext
  readonly workspaceId: string
  readonly action: Action
  readonly items: ReadonlyArray<BulkItem>
}) => {
  const base = `/app/w/${encodeURIComponent(input.workspaceId)}/recommendations`
  const cells = input.items.map((item) => ({ item, cell: outcomeCell(input.action, item.outcome) }))
  const count = (kind: string) => cells.filter((entry) => entry.cell.kind === kind).length
  const rows = cells
    .map(({ item, cell }) => {
      const sku = item.sku ?? item.id
      return `<tr class="outcome-${cell.kind}"><th scope="row"><a href="${escapeHtml(`${base}/${item.id}`)}">${escapeHtml(sku)}</a></th><td>${escapeHtml(cell.kind)}</td><td>${escapeHtml(cell.text)}</td></tr>`
    })
    .join("\n")
  return consolePage({
    title: `Bulk ${input.action}: ${input.items.length} selected`,
    context: input.context,
    body: `<p role="status">${count("done")} ${pastTense[input.action]}, ${count("repeat")} already so, ${count("conflict")} in conflict, ${count("refused")} refused.</p>
<table class="outcomes">
<caption>Outcome per recommendation</caption>
<thead><tr><th scope="col">Recommendation</th><th scope="col">Outcome</th><th scope="col">Detail</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<p><a href="${escapeHtml(base)}">Back to the queue</a></p>`
  })
}
