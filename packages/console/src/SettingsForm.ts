import { escapeHtml } from "./ConsolePage.ts"

/** The hidden CSRF field every form carries. */
export const csrfField = (csrf: string) => `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`

/** A one-button form posting to `action`; `label` names the button for assistive technology. */
export const buttonForm = (action: string, csrf: string, text: string, label: string, extra = "") =>
  `<form method="post" action="${escapeHtml(action)}" class="inline-form">${csrfField(csrf)}${extra}<button type="submit" aria-label="${escapeHtml(label)}">${escapeHtml(text)}</button></form>`

/** A notice (role status) when there is one. */
export const noticeOf = (notice: string | null) =>
  notice === null ? "" : `<p class="notice" role="status">${escapeHtml(notice)}</p>`

/** An error (role alert) when there is one, with an id the form's fields point at. */
export const errorOf = (error: string | null, id: string) =>
  error === null ? "" : `<p role="alert" class="error" id="${escapeHtml(id)}">${escapeHtml(error)}</p>`
