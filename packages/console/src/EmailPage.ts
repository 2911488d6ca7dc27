import { consolePage, escapeHtml, type PageContext } from "./ConsolePage.ts"
import { buttonForm, csrfField, noticeOf } from "./SettingsForm.ts"

/** The person's own address: confirmed or not, and a button that mails a confirmation link. */
export const emailPage = (input: {
  readonly context: PageContext
  readonly workspaceId: string
  readonly email: string
  readonly confirmed: boolean
  readonly notice: string | null
  readonly status?: number
}) =>
  consolePage({
    ...(input.status === undefined ? {} : { status: input.status }),
    title: "Your e-mail address",
    context: input.context,
    body: `${noticeOf(input.notice)}
<p>${escapeHtml(input.email)}: <strong id="email-state">${input.confirmed ? "confirmed" : "not confirmed"}</strong></p>
${
  input.confirmed
    ? ""
    : `<p>Starting a run needs a confirmed address. We mail you a link; open it while signed in here.</p>
${buttonForm(`/app/w/${encodeURIComponent(input.workspaceId)}/settings/email/send`, input.context.csrf, "Send a confirmation link", "Send a confirmation link")}`
}`
  })

/** The page a confirmation link opens: a button confirms (a mail scanner fetching the link confirms nothing). */
export const confirmEmailPage = (input: {
  readonly context: PageContext
  readonly token: string
  readonly email: string
}) =>
  consolePage({
    title: "Confirm your e-mail address",
    context: input.context,
    body: `<p>Confirm that ${escapeHtml(input.email)} is your address.</p>
<form method="post" action="/app/confirm-email">${csrfField(input.context.csrf)}<input type="hidden" name="token" value="${escapeHtml(input.token)}"><button type="submit">Confirm my address</button></form>`
  })
