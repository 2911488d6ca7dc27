import { exportReport } from "@margin/core/operations/OperationCatalogue"
import { Recommendations } from "@margin/core/RecommendationsService"
import { reportRow } from "@margin/core/ReportExportService"
import { jsonRow, ListJson, listJson, pageRequest, ReportRowJson } from "@margin/edge/wire"
import { Effect, Schema } from "effect"
import { Toolkit } from "effect/ai"
import { marginTool, toolHandlers } from "./MarginTool.ts"
import { pageParams } from "./PageParams.ts"

/**
 * The report export in pages: the rows of REST's JSON export (`GET /api/v1/reports/export`), one
 * page per call, because a tool result must fit in one message while a workspace may not.
 */
export const ExportReport = marginTool(exportReport, {
  parameters: Schema.Struct(pageParams),
  success: ListJson(ReportRowJson, "ReportPage")
})

export const ReportTools = Toolkit.make(ExportReport)

export const ReportToolsLayer = ReportTools.toLayer(
  Effect.gen(function* () {
    const recommendations = yield* Recommendations
    const handle = yield* toolHandlers
    return ReportTools.of({
      export_report: handle(ExportReport, (params, caller) =>
        Effect.map(
          recommendations.list(caller.workspaceId, { status: null, runId: null }, pageRequest(params)),
          (page) => listJson(page, (recommendation) => jsonRow(reportRow(recommendation)))
        )
      )
    })
  })
)
