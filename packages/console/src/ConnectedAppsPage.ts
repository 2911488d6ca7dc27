import type { ConnectedApp } from "@margin/core/oauth/ConnectedApps"
import { consolePage, escapeHtml, type PageContext } from "./ConsolePage.ts"
import { when } from "./RecommendationFormat.ts"
import { buttonForm, noticeOf } from "./SettingsForm.ts"

const appRow = (base: string, app: ConnectedApp, csrf: string) => `<tr>
<th scope="row">${escapeHtml(app.clientName)}</th>
<td>${escapeHtml(app.grant.scopes.join(", "))}</td>
<td>${escapeHtml(app.connectedBy)}</td>
<td>${escapeHtml(when(app.grant.createdAt))}</td>
<td>${escapeHtml(when(app.grant.lastUsedAt))}</td>
<td>${buttonForm(`${base}/${app.grant.id}/revoke`, csrf, "Revoke", `Revoke ${app.clientName}`)}</td>
</tr>`

/** The workspace's connected AI agents (live OAuth grants), each with a Revoke button. */
export const connectedAppsPage = (input: {
  readonly context: PageContext
  readonly workspaceId: string
  readonly apps: ReadonlyArray<ConnectedApp>
  readonly notice: string | null
}) => {
  const base = `/app/w/${encodeURIComponent(input.workspaceId)}/settings/connected-apps`
  return consolePage({
    title: "Connected apps",
    context: input.context,
    body: `${noticeOf(input.notice)}
<p>AI agents and other apps members connected over OAuth (the MCP server). Revoking one ends its access at once: its access and refresh tokens stop working.</p>
${
  input.apps.length === 0
    ? '<p class="empty">No app is connected to this workspace.</p>'
    : `<table class="apps"><caption>Connected apps, newest first</caption>
<thead><tr><th scope="col">App</th><th scope="col">Scopes</th><th scope="col">Connected by</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>
${input.apps.map((app) => appRow(base, app, input.context.csrf)).join("\n")}
</tbody></table>`
}`
  })
}
