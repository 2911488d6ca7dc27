import { maxExpiryDays, maxNameLength } from "@margin/core/access/ApiKeys"
import { type ApiToken, tokenState } from "@margin/core/access/ApiToken"
import type { Role } from "@margin/core/access/Role"
import { scopesForRole } from "@margin/core/access/RoleScopes"
import { consolePage, escapeHtml, type PageContext } from "./ConsolePage.ts"
import { when } from "./RecommendationFormat.ts"

/** The form's previous values and error, when a create was refused. */
export interface KeyFormState {
  readonly name: string
  readonly scopes: ReadonlyArray<string>
  readonly expiresInDays: string
  readonly error: string | null
}

export const emptyKeyForm: KeyFormState = { name: "", scopes: [], expiresInDays: "90", error: null }

const createForm = (
  base: string,
  role: Role,
  csrf: string,
  state: KeyFormState
) => `<section aria-labelledby="create-heading"><h2 id="create-heading">Create an API key</h2>
${state.error === null ? "" : `<p role="alert" class="error" id="create-error">${escapeHtml(state.error)}</p>`}
<form method="post" action="${escapeHtml(base)}" class="create-key">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<p><label for="key-name">Name</label><br>
<input id="key-name" name="name" required maxlength="${maxNameLength}" value="${escapeHtml(state.name)}" autocomplete="off"${state.error === null ? "" : ' aria-describedby="create-error"'}></p>
<fieldset><legend>Scopes (those your role, ${escapeHtml(role)}, may grant)</legend>
${scopesForRole(role)
  .map(
    (scope) =>
      `<label class="scope"><input type="checkbox" name="scope" value="${escapeHtml(scope)}"${state.scopes.includes(scope) ? " checked" : ""}> ${escapeHtml(scope)}</label>`
  )
  .join("\n")}
</fieldset>
<p><label for="key-expiry">Expires after (days, 1 to ${maxExpiryDays}; empty: never)</label><br>
<input id="key-expiry" name="expires_in_days" inputmode="numeric" pattern="[0-9]*" value="${escapeHtml(state.expiresInDays)}"></p>
<p><button type="submit">Create key</button></p>
</form></section>`

const keyRow = (base: string, token: ApiToken, csrf: string, now: number) => {
  const state = tokenState(token, now)
  return `<tr>
<th scope="row">${escapeHtml(token.name)}</th>
<td>${escapeHtml(token.scopes.join(", "))}</td>
<td>${escapeHtml(when(token.createdAt))}</td>
<td>${escapeHtml(when(token.lastUsedAt))}</td>
<td>${escapeHtml(token.expiresAt === null ? "never" : when(token.expiresAt))}</td>
<td>${escapeHtml(state)}</td>
<td>${
    state === "revoked"
      ? ""
      : `<form method="post" action="${escapeHtml(`${base}/${token.id}/revoke`)}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><button type="submit" aria-label="${escapeHtml(`Revoke ${token.name}`)}">Revoke</button></form>`
  }</td>
</tr>`
}

export const apiKeysPage = (input: {
  readonly context: PageContext
  readonly workspaceId: string
  readonly role: Role
  readonly tokens: ReadonlyArray<ApiToken>
  readonly now: number
  readonly form: KeyFormState
  /** The secret of the key just created: shown this once. */
  readonly created: { readonly name: string; readonly secret: string } | null
  readonly notice: string | null
  readonly status?: number
}) => {
  const base = `/app/w/${encodeURIComponent(input.workspaceId)}/settings/api-keys`
  return consolePage({
    ...(input.status === undefined ? {} : { status: input.status }),
    title: "API keys",
    context: input.context,
    body: `${input.notice === null ? "" : `<p class="notice" role="status">${escapeHtml(input.notice)}</p>`}
${
  input.created === null
    ? ""
    : `<section class="secret" aria-labelledby="secret-heading"><h2 id="secret-heading">Key “${escapeHtml(input.created.name)}” created</h2>
<p>Copy its secret now: it is shown this once and never stored.</p>
<p><label for="new-secret">Secret</label><br><input id="new-secret" readonly value="${escapeHtml(input.created.secret)}" size="60"> <button type="button" class="copy" data-copy="new-secret" hidden>Copy</button></p>
</section>`
}
${createForm(base, input.role, input.context.csrf, input.form)}
<section aria-labelledby="keys-heading"><h2 id="keys-heading">Keys of this workspace</h2>
${
  input.tokens.length === 0
    ? '<p class="empty">No API key yet.</p>'
    : `<table class="keys"><caption>Newest first</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>
${input.tokens.map((token) => keyRow(base, token, input.context.csrf, input.now)).join("\n")}
</tbody></table>`
}
</section>`
  })
}
