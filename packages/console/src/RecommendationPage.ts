import { mayDecide, mayTriage, type Role } from "@margin/core/access/Role"
import type { RecommendationReview } from "@margin/core/recommendations/RecommendationReviews"
import type { RecommendationDetail } from "@margin/core/recommendations/Recommendations"
import { consolePage, escapeHtml, type PageContext } from "./ConsolePage.ts"
import { money, percent, statusWords, when } from "./RecommendationFormat.ts"

/** While the store has not answered, the write-back's state and the status are re-read live (live.js). */
const waiting = (detail: RecommendationDetail): boolean =>
  detail.writeBack?.status === "pending" || detail.writeBack?.status === "in_flight"

const row = (term: string, value: string) => `<dt>${escapeHtml(term)}</dt><dd>${value}</dd>`

const writeBackSection = (detail: RecommendationDetail): string => {
  const writeBack = detail.writeBack
  if (writeBack === null) return '<p id="write-back-state">Not approved yet: nothing is written to the store.</p>'
  return `<dl id="write-back-state" data-status="${escapeHtml(writeBack.status)}" data-live="${waiting(detail) ? "on" : "off"}">
${row("State", `<span class="status status-${escapeHtml(writeBack.status)}">${escapeHtml(statusWords(writeBack.status))}</span>`)}
${row("Price written", `${money(detail.recommendation, writeBack.payload.oldPrice)} → ${money(detail.recommendation, writeBack.payload.newPrice)}`)}
${row("Attempts", String(writeBack.attempts))}
${row("Applied at", escapeHtml(when(writeBack.appliedAt)))}
${writeBack.lastError === null ? "" : row("Last error", escapeHtml(writeBack.lastError))}
</dl>`
}

/** The actions the person's role allows on this recommendation's status; none is shown that the server would refuse for the role. */
const actionForms = (base: string, detail: RecommendationDetail, role: Role, csrf: string): string => {
  const status = detail.recommendation.status
  const form = (action: string, label: string, extra = "") =>
    `<form method="post" action="${escapeHtml(`${base}/${action}`)}" class="action">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
${extra}<button type="submit">${label}</button>
</form>`
  const forms = [
    status === "new" && mayTriage(role) ? form("accept", "Accept") : "",
    status === "pending_approval" && mayDecide(role) ? form("approve", "Approve and write the price back") : "",
    status === "pending_approval" && mayDecide(role)
      ? form(
          "reject",
          "Reject",
          '<p><label for="reject-reason">Reason</label> <input id="reject-reason" name="reason" maxlength="1000" required></p>\n'
        )
      : "",
    (status === "new" || status === "pending_approval") && mayTriage(role) ? form("dismiss", "Dismiss") : ""
  ].filter((text) => text !== "")
  return forms.length === 0
    ? '<p class="empty">No action is open to you on this recommendation.</p>'
    : `<div class="actions">${forms.join("\n")}</div>`
}

/** Why a review has no curve, in the merchant's words. */
const noCurveReason = (review: RecommendationReview): string =>
  review.item === null
    ? "The item is no longer in the catalog, so no profit curve is drawn."
    : (review.detail.recommendation.basis?.cost ?? review.item.cost) === null
      ? "The item's cost is unknown, so its profit cannot be drawn: import a cost to see it."
      : "The item sold nothing in the last 30 days, so there is nothing to scale a profit curve by."

/** Which limits the chart draws, as the end of its caption. */
const limitsDrawn = (curve: { readonly floor: number | null; readonly ceiling: number | null }): string => {
  const drawn = [curve.floor === null ? "" : "the floor", curve.ceiling === null ? "" : "the ceiling"].filter(
    (name) => name !== ""
  )
  return drawn.length === 0 ? "" : `, ${drawn.join(" and ")} as dashed lines`
}

const profitFigure = (review: RecommendationReview): string => {
  const r = review.detail.recommendation
  if (review.curve === null) return `<p id="profit-chart-none">${escapeHtml(noCurveReason(review))}</p>`
  return `<figure class="chart">
<div id="profit-chart" data-curve="${escapeHtml(JSON.stringify(review.curve))}" data-currency="${escapeHtml(r.currency)}"></div>
<figcaption>Expected monthly profit against price, from the elasticity's estimate (the line) and its 90 % interval (the band), with the units sold in the last 30 days at today's price; the current and recommended prices marked${limitsDrawn(review.curve)}.</figcaption>
</figure>`
}

export const recommendationPage = (input: {
  readonly context: PageContext
  readonly workspaceId: string
  readonly role: Role
  readonly review: RecommendationReview
  readonly notice: string | null
}) => {
  const detail = input.review.detail
  const r = detail.recommendation
  const workspaceBase = `/app/w/${encodeURIComponent(input.workspaceId)}`
  const base = `${workspaceBase}/recommendations/${encodeURIComponent(r.id)}`
  const [low, high] = r.elasticityInterval
  const chart = input.review.curve !== null
  return consolePage({
    title: `Recommendation for ${r.sku}`,
    context: input.context,
    scripts: chart ? ["uplot.js", "chart.js", "live.js"] : ["live.js"],
    styles: chart ? ["uplot.css"] : [],
    body: `${input.notice === null ? "" : `<p class="notice" role="status">${escapeHtml(input.notice)}</p>`}
<p><a href="${escapeHtml(`${workspaceBase}/recommendations`)}">← Back to the queue</a>${input.review.item === null ? "" : ` · <a href="${escapeHtml(`${workspaceBase}/catalog/${encodeURIComponent(r.itemId)}`)}">The item ${escapeHtml(r.sku)}</a>`}</p>
<section aria-labelledby="summary-heading"><h2 id="summary-heading">Summary</h2>
<dl class="facts">
${row("Status", `<span class="status status-${escapeHtml(r.status)}" id="recommendation-status" data-live="${waiting(detail) ? "on" : "off"}">${escapeHtml(statusWords(r.status))}</span>`)}
${row("Current price", money(r, r.currentPrice))}
${row("Recommended price", money(r, r.recommendedPrice))}
${row("Expected monthly impact", money(r, r.expectedMonthlyImpact))}
${row("Margin", `${percent(r.currentMargin)} → ${percent(r.projectedMargin)}`)}
${row("Rule", escapeHtml(r.rule))}
${row("Run", escapeHtml(r.runId))}
${r.rejectReason === null ? "" : row("Reject reason", escapeHtml(r.rejectReason))}
</dl></section>
<section aria-labelledby="why-heading"><h2 id="why-heading">Why</h2>
<p class="explanation">${escapeHtml(r.explanation)}</p>
<dl class="facts">
${row("Price elasticity", escapeHtml(r.elasticity.toFixed(2)))}
${row("90 % interval", `${escapeHtml(low.toFixed(2))} to ${escapeHtml(high.toFixed(2))}`)}
${row("Estimated from", `${escapeHtml(statusWords(r.elasticitySource))}, ${r.elasticitySampleSize} observation${r.elasticitySampleSize === 1 ? "" : "s"}`)}
</dl>
${profitFigure(input.review)}
</section>
<section aria-labelledby="write-back-heading"><h2 id="write-back-heading">Write-back to the store</h2>
${writeBackSection(detail)}
</section>
<section aria-labelledby="actions-heading"><h2 id="actions-heading">Decide</h2>
${actionForms(base, detail, input.role, input.context.csrf)}
</section>`
  })
}
