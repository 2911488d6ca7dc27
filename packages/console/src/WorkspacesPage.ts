import type { WorkspaceMembership } from "@margin/core/access/WorkspaceAccess"
import { consolePage, escapeHtml, type PageContext } from "./ConsolePage.ts"

/** The workspaces of the signed-in person, to pick one. */
export const workspacesPage = (context: PageContext, memberships: ReadonlyArray<WorkspaceMembership>) =>
  consolePage({
    title: "Your workspaces",
    context,
    body:
      memberships.length === 0
        ? '<p class="empty">You are not a member of any workspace yet: ask an owner to invite you.</p>'
        : `<ul class="workspaces">
${memberships
  .map(
    ({ workspace, role }) =>
      `<li><a href="${escapeHtml(`/app/w/${encodeURIComponent(workspace.id)}/recommendations`)}">${escapeHtml(workspace.name)}</a> <span class="role">${escapeHtml(role)}</span></li>`
  )
  .join("\n")}
</ul>`
  })
