/** The path of a request target: its URL without the query and the fragment (`/api/v1/runs?limit=5` -> `/api/v1/runs`). */
export const pathOf = (url: string): string => {
  const end = url.search(/[?#]/)
  return end === -1 ? url : url.slice(0, end)
}
