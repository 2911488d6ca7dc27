import type { Scope } from "@margin/core/access/Scope"
import type { WorkspaceMembership } from "@margin/core/access/WorkspaceAccess"
import { displayable } from "@margin/core/oauth/OAuthText"
import { planLimits } from "@margin/core/workspaces/Plan"
import type { Cookies } from "effect/http"
import { HttpServerResponse } from "effect/http"

/** Text for HTML content and attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

/**
 * A claim someone else made (a client's name), as a page shows it: without controls and bidi
 * overrides (`displayable`), escaped, and isolated in `<bdi>` so that even right-to-left text in it
 * cannot reorder the sentence around it.
 */
const claimed = (text: string): string => `<bdi>${escapeHtml(displayable(text))}</bdi>`

/**
 * No script, no style, no frame, no external load: the pages are plain forms. A form may post
 * here, and (consent) on to the client's redirect URI, which a browser checks against form-action
 * after the redirect.
 */
const contentSecurityPolicy = (formTargets: ReadonlyArray<string>) =>
  [
    "default-src 'none'",
    `form-action 'self'${formTargets.map((target) => ` ${target}`).join("")}`,
    "frame-ancestors 'none'",
    "base-uri 'none'"
  ].join("; ")

/**
 * A cookie of the sign-in pages: HttpOnly, `sameSite` as given; over http for /oauth only, over
 * https Secure and for / (what a `__Host-` name requires).
 */
export type PageCookie = readonly [name: string, value: string, options: NonNullable<Cookies.Cookie["options"]>]

export const pageCookie = (
  name: string,
  value: string,
  maxAgeSeconds: number,
  sameSite: "lax" | "strict",
  secure = false,
  path: "/" | "/oauth" = secure ? "/" : "/oauth"
): PageCookie => [
  name,
  value,
  {
    httpOnly: true,
    path,
    sameSite,
    maxAge: `${maxAgeSeconds} seconds`,
    ...(secure ? { secure: true } : {})
  }
]

/** A whole page, never cached, never framed. */
export const htmlPage = (
  status: number,
  title: string,
  body: string,
  options: { readonly formTargets?: ReadonlyArray<string>; readonly cookies?: ReadonlyArray<PageCookie> } = {}
) =>
  HttpServerResponse.text(
    `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Margin</title></head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`,
    {
      status,
      contentType: "text/html; charset=utf-8",
      headers: {
        "content-security-policy": contentSecurityPolicy(options.formTargets ?? []),
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer"
      }
    }
  ).pipe(HttpServerResponse.setCookiesUnsafe(options.cookies ?? []))

/** An authorization request that cannot go back to its client (unknown client, redirect URI not registered). */
export const errorPage = (description: string) =>
  htmlPage(400, "This sign-in request cannot continue", `<p role="alert">${escapeHtml(description)}</p>`)

const hidden = (name: string, value: string) =>
  `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`

/**
 * The sign-in page: through the identity provider (when configured), and/or by e-mail link (the
 * address, the CSRF token, and where to come back to).
 */
export const loginPage = (input: {
  readonly csrf: string
  readonly returnTo: string
  readonly cookies: ReadonlyArray<PageCookie>
  readonly emailLink: boolean
  readonly oidc: boolean
}) =>
  htmlPage(
    200,
    "Sign in to Margin",
    `<p>${input.returnTo.startsWith("/app") ? "Sign in to the Margin console." : "An AI agent asks to connect to Margin. Sign in to decide what it may do."}</p>
${
  input.oidc
    ? `<p><a href="/oauth/login/oidc?${escapeHtml(new URLSearchParams({ return_to: input.returnTo }).toString())}">Sign in with your identity provider</a></p>`
    : ""
}
${
  input.emailLink
    ? `<form method="post" action="/oauth/login">
${hidden("csrf", input.csrf)}
${hidden("return_to", input.returnTo)}
<p><label for="email">E-mail address</label><br>
<input id="email" name="email" type="email" autocomplete="email" required></p>
<p><button type="submit">Send me a sign-in link</button></p>
</form>`
    : ""
}`,
    { cookies: input.cookies }
  )

/**
 * A sign-in link opened: nothing happens until the user confirms with a form post (a mail scanner
 * fetching the link spends nothing; a link someone else asked for cannot switch the browser to
 * their account unnoticed: login CSRF).
 */
export const continuePage = (input: {
  readonly email: string
  readonly signedInAs: string | undefined
  readonly token: string
  readonly returnTo: string
  readonly csrf: string
  readonly cookies: ReadonlyArray<PageCookie>
}) =>
  htmlPage(
    200,
    `Continue as ${input.email}?`,
    `${
      input.signedInAs === undefined
        ? ""
        : `<p role="alert">This browser is signed in as <strong>${escapeHtml(input.signedInAs)}</strong>. Continuing signs it in as <strong>${escapeHtml(input.email)}</strong> instead.</p>\n`
    }<p>This sign-in link is for <strong>${escapeHtml(input.email)}</strong>. If you did not ask for it, close this page.</p>
<form method="post" action="/oauth/login/link">
${hidden("csrf", input.csrf)}
${hidden("token", input.token)}
${hidden("return_to", input.returnTo)}
<p><button type="submit">Continue as ${escapeHtml(input.email)}</button></p>
</form>`,
    { cookies: input.cookies }
  )

/** Too many sign-in requests from this address or for this e-mail: the same for known and unknown addresses. */
export const tooManySignInsPage = (retryAfterSeconds: number) =>
  htmlPage(
    429,
    "Too many sign-in requests",
    `<p role="alert">Wait ${retryAfterSeconds} seconds before asking for another sign-in link.</p>`
  ).pipe(HttpServerResponse.setHeader("retry-after", String(retryAfterSeconds)))

export const linkSentPage = () =>
  htmlPage(
    200,
    "Check your e-mail",
    `<p role="status">If that address belongs to a Margin account, a sign-in link is on its way. It works for 10 minutes.</p>`
  )

const scopeDescriptions: Record<Scope, string> = {
  "runs:read": "see analysis runs",
  "runs:trigger": "start analysis runs",
  "recommendations:read": "see price recommendations",
  "recommendations:write": "accept and dismiss recommendations",
  "recommendations:approve": "approve or reject recommendations (changes live store prices)",
  "alerts:read": "see alerts",
  "alerts:write": "snooze, resolve and dismiss alerts",
  "catalog:read": "see the catalog",
  "catalog:write": "import catalog files (prices, costs, stock)",
  "reports:read": "export reports",
  "workspace:read": "see the workspace's status"
}

export interface ConsentView {
  readonly clientName: string
  readonly clientId: string
  readonly metadataUrl: string | null
  readonly redirectUri: string
  readonly userEmail: string
  readonly workspaces: ReadonlyArray<WorkspaceMembership>
  readonly scopes: ReadonlyArray<Scope>
  /** The authorization request's parameters, posted back with the decision. */
  readonly request: Readonly<Record<string, string>>
  readonly csrf: string
  readonly formTargets: ReadonlyArray<string>
  readonly cookies: ReadonlyArray<PageCookie>
}

/**
 * The consent page: who asks (the client's name is its own claim, so its id or metadata URL and
 * where the answer goes are shown too), which workspace (Max and Enterprise only; the others are
 * listed, disabled, with the reason) and which scopes (all asked for are ticked; untick to narrow).
 */
export const consentPage = (view: ConsentView) => {
  const eligible = view.workspaces.filter(({ workspace }) => planLimits[workspace.plan].mcp)
  const workspaceChoices = view.workspaces
    .map(({ workspace, role }, index) => {
      const allowed = planLimits[workspace.plan].mcp
      const id = `workspace-${index}`
      const note = allowed
        ? `${workspace.plan} plan, you are ${role}`
        : `${workspace.plan} plan: AI agents need a Max or Enterprise plan`
      return `<li><input type="radio" name="workspace_id" id="${id}" value="${escapeHtml(workspace.id)}"${
        allowed ? (workspace.id === eligible[0]?.workspace.id ? " checked" : "") : " disabled"
      } aria-describedby="${id}-note" required> <label for="${id}">${escapeHtml(workspace.name)}</label> <small id="${id}-note">(${escapeHtml(note)})</small></li>`
    })
    .join("\n")
  const scopeChoices = view.scopes
    .map(
      (scope, index) =>
        `<li><input type="checkbox" name="grant_scope" id="scope-${index}" value="${scope}" checked> <label for="scope-${index}"><code>${scope}</code>: ${escapeHtml(scopeDescriptions[scope])}</label></li>`
    )
    .join("\n")
  const identity =
    view.metadataUrl === null
      ? `<p>Client id: <code>${escapeHtml(view.clientId)}</code> (registered itself; the name is its own claim).</p>`
      : `<p>Described by <a href="${escapeHtml(view.metadataUrl)}">${escapeHtml(view.metadataUrl)}</a>.</p>`
  const body = `<p>Signed in as <strong>${escapeHtml(view.userEmail)}</strong>.</p>
<p><strong>${claimed(view.clientName)}</strong> asks to act for you in one workspace.</p>
${identity}
<p>After you decide, your browser goes to <code>${escapeHtml(view.redirectUri)}</code>.</p>
<form method="post" action="/oauth/authorize">
${hidden("csrf", view.csrf)}
${Object.entries(view.request)
  .map(([name, value]) => hidden(name, value))
  .join("\n")}
<fieldset><legend>Workspace</legend>
<ul>
${workspaceChoices}
</ul>
${eligible.length === 0 ? `<p role="alert">None of your workspaces is on a Max or Enterprise plan, so none can be connected.</p>` : ""}
</fieldset>
<fieldset><legend>What it may do</legend>
<ul>
${scopeChoices}
</ul>
</fieldset>
<p><button type="submit" name="decision" value="allow"${eligible.length === 0 ? " disabled" : ""}>Allow</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button></p>
</form>`
  return htmlPage(200, `Connect ${displayable(view.clientName)} to Margin?`, body, {
    formTargets: view.formTargets,
    cookies: view.cookies
  })
}

/** The database failed under a page: nothing the user did; try again. */
export const unavailablePage = () =>
  htmlPage(503, "Margin is unavailable", `<p role="alert">Try again in a moment.</p>`)
