import { exportReport } from "@margin/core/operations/OperationCatalogue"
import { jsonRow, ListJson, listJson, ReportRowJson } from "@margin/edge/wire"
import { Effect } from "effect"
import { Toolkit } from "effect/ai"
import { marginTool, toolHandlers, toolParameters } from "./MarginTool.ts"

/**
 * The report export in pages: the rows of REST's JSON export (`GET /api/v1/reports/export`), one
 * page per call, because a tool result must fit in one message while a workspace may not.
 */
export const ExportReport = marginTool(exportReport, {
  parameters: toolParameters(exportReport),
  success: ListJson(ReportRowJson, "ReportPage")
})

export const ReportTools = Toolkit.make(ExportReport)

export const ReportToolsLayer = ReportTools.toLayer(
  Effect.gen(function* () {
    const handle = yield* toolHandlers
    return ReportTools.of({
      export_report: handle(ExportReport, yield* exportReport.binding, (page) => listJson(page, jsonRow))
    })
  })
)
