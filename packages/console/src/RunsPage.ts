import type { Run } from "@margin/core/runs/Run"
import { consolePage, escapeHtml, type PageContext } from "./ConsolePage.ts"
import { pagerLinks } from "./PagerLinks.ts"
import { statusWords, when } from "./RecommendationFormat.ts"

/** A run still moving: its page (and the history) stay live while one shows. */
export const isActive = (run: Run): boolean => run.status === "queued" || run.status === "running"

/** The trigger form as sent back: the tags typed, and why they were refused. */
export interface TriggerFormState {
  readonly tags: string
  readonly error: string | null
}

export const emptyTriggerForm: TriggerFormState = { tags: "", error: null }

const tagsText = (run: Run): string => (run.subsetTags.length === 0 ? "whole catalog" : run.subsetTags.join(", "))

const progressText = (run: Run): string =>
  run.itemsTotal === null
    ? `${run.itemsAnalysed} items analysed`
    : `${run.itemsAnalysed} of ${run.itemsTotal} items analysed`

const triggerForm = (base: string, csrf: string, form: TriggerFormState): string =>
  `<form method="post" action="${escapeHtml(base)}" class="trigger">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
${form.error === null ? "" : `<p class="error" role="alert" id="tags-error">${escapeHtml(form.error)}</p>`}
<p><label for="tags">Tags</label>
<input id="tags" name="tags" value="${escapeHtml(form.tags)}" autocomplete="off" aria-describedby="tags-help${form.error === null ? "" : " tags-error"}">
<span id="tags-help" class="help">Separated by commas; the run prices the items carrying any of them. Empty: the whole catalog.</span></p>
<p><button type="submit">Start a run</button></p>
</form>`

/** The runs of the workspace, newest first, with their counts; a form to start one for those who may. */
export const runsPage = (input: {
  readonly context: PageContext
  readonly workspaceId: string
  readonly mayTrigger: boolean
  readonly runs: ReadonlyArray<Run>
  readonly cursor: string | null
  readonly nextCursor: string | null
  readonly form: TriggerFormState
  readonly status?: number
}) => {
  const base = `/app/w/${encodeURIComponent(input.workspaceId)}/runs`
  const live = input.runs.some(isActive)
  const rows = input.runs
    .map(
      (run) => `<tr>
<th scope="row"><a href="${escapeHtml(`${base}/${run.id}`)}">${escapeHtml(run.id)}</a></th>
<td><span class="status status-${escapeHtml(run.status)}">${escapeHtml(statusWords(run.status))}</span></td>
<td>${escapeHtml(tagsText(run))}</td>
<td class="num">${run.itemsAnalysed}${run.itemsTotal === null ? "" : ` / ${run.itemsTotal}`}</td>
<td class="num">${run.recommendationsCount}</td>
<td class="num">${run.alertsCount}</td>
<td>${escapeHtml(run.requestedBy ?? run.trigger)}</td>
<td>${escapeHtml(when(run.createdAt))}</td>
<td>${escapeHtml(when(run.finishedAt))}</td>
</tr>`
    )
    .join("\n")
  const history =
    input.runs.length === 0
      ? '<p class="empty">No run yet.</p>'
      : `<table id="run-history" data-live="${live ? "on" : "off"}">
<caption>Runs, newest first</caption>
<thead><tr><th scope="col">Run</th><th scope="col">Status</th><th scope="col">Over</th><th scope="col">Items analysed</th><th scope="col">Recommendations</th><th scope="col">Alerts</th><th scope="col">Started by</th><th scope="col">Queued at</th><th scope="col">Finished at</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
  return consolePage({
    ...(input.status === undefined ? {} : { status: input.status }),
    title: "Runs",
    context: input.context,
    scripts: ["live.js"],
    ...(live ? { refreshSeconds: 5 } : {}),
    body: `${input.mayTrigger ? `<section aria-labelledby="trigger-heading"><h2 id="trigger-heading">Start a run</h2>\n${triggerForm(base, input.context.csrf, input.form)}</section>` : ""}
<section aria-labelledby="history-heading"><h2 id="history-heading">History</h2>
${history}
${pagerLinks(base, input.cursor, input.nextCursor, "runs")}
</section>`
  })
}

/** One run: its progress, live while it is queued or running, and what it found. */
export const runPage = (input: {
  readonly context: PageContext
  readonly workspaceId: string
  readonly run: Run
  readonly notice: string | null
}) => {
  const { run } = input
  const live = isActive(run)
  const total = run.itemsTotal ?? 0
  const queue = `/app/w/${encodeURIComponent(input.workspaceId)}/recommendations?run=${encodeURIComponent(run.id)}`
  return consolePage({
    title: `Run ${run.id}`,
    context: input.context,
    scripts: ["live.js"],
    ...(live ? { refreshSeconds: 5 } : {}),
    body: `${input.notice === null ? "" : `<p class="notice" role="status">${escapeHtml(input.notice)}</p>`}
<p><a href="/app/w/${escapeHtml(encodeURIComponent(input.workspaceId))}/runs">← All runs</a></p>
<section id="run-progress" data-live="${live ? "on" : "off"}" data-status="${escapeHtml(run.status)}" aria-labelledby="progress-heading">
<h2 id="progress-heading">Progress</h2>
<p><label for="run-progress-bar">${escapeHtml(progressText(run))}</label>
<progress id="run-progress-bar" max="${Math.max(total, 1)}" value="${run.status === "succeeded" ? Math.max(total, 1) : run.itemsAnalysed}">${escapeHtml(progressText(run))}</progress></p>
<dl class="facts">
<dt>Status</dt><dd><span class="status status-${escapeHtml(run.status)}" id="run-status">${escapeHtml(statusWords(run.status))}</span></dd>
<dt>Over</dt><dd>${escapeHtml(tagsText(run))}</dd>
<dt>Recommendations</dt><dd>${run.recommendationsCount}${run.recommendationsCount === 0 ? "" : ` (<a href="${escapeHtml(queue)}">see them</a>)`}</dd>
<dt>Alerts</dt><dd>${run.alertsCount}</dd>
<dt>Started by</dt><dd>${escapeHtml(run.requestedBy ?? run.trigger)}</dd>
<dt>Queued at</dt><dd>${escapeHtml(when(run.createdAt))}</dd>
<dt>Started at</dt><dd>${escapeHtml(when(run.startedAt))}</dd>
<dt>Finished at</dt><dd>${escapeHtml(when(run.finishedAt))}</dd>
${run.error === null ? "" : `<dt>Error</dt><dd>${escapeHtml(run.error)}</dd>`}
</dl>
</section>`
  })
}
