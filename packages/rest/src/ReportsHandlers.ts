import type { RepositoryError } from "@margin/core/kernel/Errors"
import { ReportExport, type ReportRow } from "@margin/core/recommendations/ReportExport"
import { Caller } from "@margin/edge/auth"
import { csvHeader, csvLine, jsonRow } from "@margin/edge/wire"
import { Effect, Stream } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api, apiMiddlewares } from "./Api.ts"
import { isolatedGroup } from "./IsolatedGroup.ts"

/** The quality an Accept header gives a media type (0 when it is not acceptable), wildcards included. */
export const acceptQuality = (accept: string | undefined, mediaType: string): number => {
  if (accept === undefined || accept.trim() === "") return 1
  const [type] = mediaType.split("/")
  let best = 0
  for (const part of accept.split(",")) {
    const [range = "", ...params] = part.trim().toLowerCase().split(";")
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="))
    const quality = q === undefined ? 1 : Number(q.slice(2))
    const matches = range === mediaType || range === `${type}/*` || range === "*/*"
    if (matches && Number.isFinite(quality)) best = Math.max(best, quality)
  }
  return best
}

/** JSON only when the client asks for it more than for CSV; CSV otherwise (the default). */
export const wantsJson = (accept: string | undefined): boolean =>
  acceptQuality(accept, "application/json") > acceptQuality(accept, "text/csv")

// One write per chunk of rows, not one per row.
const joinChunks = (lines: Stream.Stream<string, RepositoryError>) =>
  Stream.mapArray(lines, (chunk) => [chunk.join("")] as const)

const csvBody = (rows: Stream.Stream<ReportRow, RepositoryError>) =>
  Stream.concat(Stream.make(csvHeader), joinChunks(Stream.map(rows, csvLine)))

const jsonBody = (rows: Stream.Stream<ReportRow, RepositoryError>) =>
  Stream.make('{"data":[').pipe(
    Stream.concat(
      joinChunks(Stream.map(rows, (row, index) => (index === 0 ? "" : ",") + JSON.stringify(jsonRow(row))))
    ),
    Stream.concat(Stream.make("]}"))
  )

export const ReportsHandlers = isolatedGroup(
  Effect.gen(function* () {
    const reports = yield* ReportExport
    return HttpApiBuilder.group(Api, "reports", (handlers) =>
      handlers.handleAll({
        exportReport: ({ request }) =>
          Caller.useSync((caller) => {
            const rows = reports.rows(caller.workspaceId)
            const json = wantsJson(request.headers.accept)
            return HttpServerResponse.stream(Stream.encodeText(json ? jsonBody(rows) : csvBody(rows)), {
              contentType: json ? "application/json" : "text/csv; charset=utf-8",
              headers: {
                "content-disposition": `attachment; filename="report.${json ? "json" : "csv"}"`,
                vary: "accept"
              }
            })
          })
      })
    )
  }),
  ...apiMiddlewares
)
