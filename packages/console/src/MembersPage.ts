import { type Role, roles } from "@margin/core/access/Role"
import type { MemberView } from "@margin/core/access/WorkspaceMembers"
import { consolePage, escapeHtml, type PageContext } from "./ConsolePage.ts"
import { buttonForm, csrfField, errorOf, noticeOf } from "./SettingsForm.ts"

/** The invite form's previous values and error, when an invite was refused. */
export interface InviteFormState {
  readonly email: string
  readonly role: string
  readonly error: string | null
}

export const emptyInviteForm: InviteFormState = { email: "", role: "viewer", error: null }

/** The roles `actor` may give: an admin every role below owner, an owner every role. */
export const assignableRoles = (actor: Role): ReadonlyArray<Role> =>
  actor === "owner" ? roles : roles.filter((role) => role !== "owner")

const roleOptions = (choices: ReadonlyArray<Role>, selected: string) =>
  choices.map((role) => `<option value="${role}"${role === selected ? " selected" : ""}>${role}</option>`).join("")

const memberRow = (base: string, member: MemberView, actor: Role, csrf: string, self: string) => {
  // An admin does not change or remove an owner (the use case refuses it too).
  const manageable = actor === "owner" || member.role !== "owner"
  const label = member.email === "" ? member.userId : member.email
  const roleForm = manageable
    ? `<form method="post" action="${escapeHtml(`${base}/${member.userId}/role`)}" class="inline-form">${csrfField(csrf)}<label class="visually-hidden" for="role-${escapeHtml(member.userId)}">Role of ${escapeHtml(label)}</label><select id="role-${escapeHtml(member.userId)}" name="role">${roleOptions(assignableRoles(actor), member.role)}</select> <button type="submit" aria-label="${escapeHtml(`Change role of ${label}`)}">Change role</button></form>`
    : ""
  return `<tr>
<th scope="row">${escapeHtml(label)}${member.userId === self ? " (you)" : ""}</th>
<td>${escapeHtml(member.role)}</td>
<td>${member.emailConfirmed ? "confirmed" : "not confirmed"}</td>
<td>${roleForm}</td>
<td>${manageable ? buttonForm(`${base}/${member.userId}/remove`, csrf, "Remove", `Remove ${label}`) : ""}</td>
</tr>`
}

/** The workspace's members with their roles; invite, change a role, remove. */
export const membersPage = (input: {
  readonly context: PageContext
  readonly workspaceId: string
  readonly role: Role
  readonly userId: string
  readonly members: ReadonlyArray<MemberView>
  readonly form: InviteFormState
  readonly notice: string | null
  readonly error: string | null
  readonly status?: number
}) => {
  const base = `/app/w/${encodeURIComponent(input.workspaceId)}/settings/members`
  const described = input.form.error === null ? "" : ' aria-describedby="invite-error"'
  return consolePage({
    ...(input.status === undefined ? {} : { status: input.status }),
    title: "Members",
    context: input.context,
    body: `${noticeOf(input.notice)}${errorOf(input.error, "members-error")}
<section aria-labelledby="invite-heading"><h2 id="invite-heading">Invite a member</h2>
<p>They get a sign-in link by e-mail; the membership starts now with the role chosen.${input.role === "owner" ? "" : " Only an owner can make an owner."}</p>
${errorOf(input.form.error, "invite-error")}
<form method="post" action="${escapeHtml(`${base}/invite`)}" class="settings-form">
${csrfField(input.context.csrf)}
<p><label for="invite-email">E-mail address</label><br>
<input id="invite-email" name="email" type="email" required maxlength="254" autocomplete="off" value="${escapeHtml(input.form.email)}"${described}></p>
<p><label for="invite-role">Role</label><br>
<select id="invite-role" name="role">${roleOptions(assignableRoles(input.role), input.form.role)}</select></p>
<p><button type="submit">Invite</button></p>
</form></section>
<section aria-labelledby="members-heading"><h2 id="members-heading">Members of this workspace</h2>
<table class="members"><caption>Viewers read; analysts accept and dismiss; approvers approve and reject; admins and owners also manage the settings.</caption>
<thead><tr><th scope="col">Member</th><th scope="col">Role</th><th scope="col">E-mail</th><th scope="col"><span class="visually-hidden">Change role</span></th><th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead>
<tbody>
${input.members.map((member) => memberRow(base, member, input.role, input.context.csrf, input.userId)).join("\n")}
</tbody></table></section>`
  })
}
