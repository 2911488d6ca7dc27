import type { SessionCookie } from "@margin/edge/auth"
import { HttpServerResponse } from "effect/http"
import { assetPath } from "./ConsoleAssets.ts"

/** Text for HTML content and attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

/**
 * Scripts and styles from this origin's files only (no inline script, no style attribute), forms
 * only to this origin, never framed. The chart library draws on a canvas, which needs nothing more.
 */
export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'"
].join("; ")

/** The headers of every console page: never cached (it shows a person's data), never sniffed or framed. */
export const pageHeaders = {
  "content-security-policy": contentSecurityPolicy,
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin"
} as const

/**
 * A notice at the top of every workspace page: support access open, the person's account deletion
 * pending (the contract's two status objects), or their address not confirmed (`text`: the address).
 */
export interface Banner {
  readonly kind: "support" | "deletion" | "confirm-email"
  readonly text: string
}

/** The settings pages, in the navigation's order (admins and owners only). */
export const settingsPages = [
  ["api-keys", "API keys"],
  ["connected-apps", "Connected apps"],
  ["members", "Members"],
  ["policy", "Pricing policy"],
  ["store", "Store"]
] as const
export type SettingsPage = (typeof settingsPages)[number][0]

/** Where the person is: the workspace's name and id, their role and the navigation's current entry. */
export interface PageContext {
  readonly workspace: { readonly id: string; readonly name: string } | null
  readonly role: string | null
  readonly email: string | null
  readonly csrf: string
  readonly current?:
    | "recommendations"
    | "catalog"
    | "changes"
    | "runs"
    | "alerts"
    | "workspaces"
    | "email"
    | SettingsPage
  readonly banners?: ReadonlyArray<Banner>
}

export interface PageInput {
  readonly status?: number
  readonly title: string
  readonly body: string
  readonly context: PageContext | null
  /** Extra scripts of this origin (the chart library on the detail page). */
  readonly scripts?: ReadonlyArray<string>
  /** Extra stylesheets of this origin (the chart library's). */
  readonly styles?: ReadonlyArray<string>
  readonly cookies?: ReadonlyArray<SessionCookie>
  /** Reloaded every this many seconds when JavaScript is off (a live page's fallback; its script refreshes it otherwise). */
  readonly refreshSeconds?: number
}

const navigation = (context: PageContext): string => {
  const workspace = context.workspace
  const entry = (href: string, label: string, current: boolean) =>
    `<li><a href="${escapeHtml(href)}"${current ? ' aria-current="page"' : ""}>${escapeHtml(label)}</a></li>`
  const base = workspace === null ? "" : `/app/w/${encodeURIComponent(workspace.id)}`
  const links =
    workspace === null
      ? ""
      : [
          entry(`${base}/recommendations`, "Recommendations", context.current === "recommendations"),
          entry(`${base}/changes`, "What changed", context.current === "changes"),
          entry(`${base}/runs`, "Runs", context.current === "runs"),
          entry(`${base}/alerts`, "Alerts", context.current === "alerts"),
          entry(`${base}/catalog`, "Catalog", context.current === "catalog"),
          ...(context.role === "admin" || context.role === "owner"
            ? settingsPages.map(([page, label]) => entry(`${base}/settings/${page}`, label, context.current === page))
            : []),
          entry("/app", "Workspaces", context.current === "workspaces")
        ].join("")
  return `<header class="top">
<a class="brand" href="/app">Margin</a>
${workspace === null ? "" : `<span class="workspace">${escapeHtml(workspace.name)} <span class="role">${escapeHtml(context.role ?? "")}</span></span>`}
<nav aria-label="Main"><ul>${links}</ul></nav>
<form method="post" action="/app/sign-out" class="sign-out">
<input type="hidden" name="csrf" value="${escapeHtml(context.csrf)}">
${
  workspace === null || context.email === null
    ? ""
    : `<a class="who" href="${escapeHtml(`${base}/settings/email`)}"${context.current === "email" ? ' aria-current="page"' : ""}>${escapeHtml(context.email)}</a>`
} <button type="submit">Sign out</button>
</form>
</header>
${bannersOf(context)}`
}

const bannersOf = (context: PageContext): string => {
  const banners = context.banners ?? []
  if (banners.length === 0 || context.workspace === null) return ""
  const emailPage = `/app/w/${encodeURIComponent(context.workspace.id)}/settings/email`
  const one = (banner: Banner) =>
    banner.kind === "confirm-email"
      ? `<p class="banner banner-confirm-email">Your e-mail address ${escapeHtml(banner.text)} is not confirmed: starting a run needs it. <a href="${escapeHtml(emailPage)}">Confirm it</a></p>`
      : `<p class="banner banner-${banner.kind}">${escapeHtml(banner.text)}</p>`
  return `<section class="banners" aria-label="Workspace status">${banners.map(one).join("\n")}</section>`
}

/** A whole console page: its stylesheet and script are files of this origin (CSP: no inline code). */
export const consolePage = (input: PageInput) =>
  HttpServerResponse.text(
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)} · Margin</title>
<link rel="stylesheet" href="${assetPath("console.css")}">
${(input.styles ?? []).map((name) => `<link rel="stylesheet" href="${assetPath(name)}">`).join("\n")}
<script src="${assetPath("console.js")}" defer></script>
${(input.scripts ?? []).map((name) => `<script src="${assetPath(name)}" defer></script>`).join("\n")}
${input.refreshSeconds === undefined ? "" : `<noscript><meta http-equiv="refresh" content="${input.refreshSeconds}"></noscript>`}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${input.context === null ? "" : navigation(input.context)}
<main id="main">
<h1>${escapeHtml(input.title)}</h1>
${input.body}
</main>
</body>
</html>
`,
    { status: input.status ?? 200, contentType: "text/html; charset=utf-8", headers: pageHeaders }
  ).pipe(HttpServerResponse.setCookiesUnsafe(input.cookies ?? []))

/** A page that only says why (refused, not found, too many requests), in the console's frame. */
export const messagePage = (status: number, title: string, message: string, context: PageContext | null) =>
  consolePage({ status, title, body: `<p role="alert">${escapeHtml(message)}</p>`, context })
