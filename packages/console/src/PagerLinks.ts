import { type Cursor, decodeCursor } from "@margin/core/kernel/Page"
import { Result } from "effect"
import { escapeHtml } from "./ConsolePage.ts"

/**
 * The links between the pages of a newest-first list: back to the newest when on a later page,
 * on to the older ones while there are more. `query` keeps the list's filters.
 */
export const pagerLinks = (
  base: string,
  cursor: string | null,
  nextCursor: string | null,
  what: string,
  query: URLSearchParams = new URLSearchParams()
): string => {
  const href = (next: string | null) => {
    const params = new URLSearchParams(query)
    if (next !== null) params.set("cursor", next)
    const text = params.toString()
    return escapeHtml(text === "" ? base : `${base}?${text}`)
  }
  const links = [
    cursor === null ? "" : `<a href="${href(null)}">← Newest ${escapeHtml(what)}</a>`,
    nextCursor === null ? "" : `<a href="${href(nextCursor)}" rel="next">Older ${escapeHtml(what)} →</a>`
  ].filter((link) => link !== "")
  return links.length === 0 ? "" : `<nav class="pager" aria-label="Pages">${links.join(" ")}</nav>`
}

/** The `cursor` of a page link read back: null on the first page, "invalid" for one the console did not make. */
export const cursorFrom = (query: URLSearchParams): Cursor | null | "invalid" => {
  const text = query.get("cursor")
  if (text === null || text === "") return null
  const decoded = decodeCursor(text)
  return Result.isSuccess(decoded) ? decoded.success : "invalid"
}
