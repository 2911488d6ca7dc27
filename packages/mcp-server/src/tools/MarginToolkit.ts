import type { RouteAccessShape } from "@margin/edge/auth"
import { Layer } from "effect"
import { Toolkit } from "effect/ai"
import { AlertTools, AlertToolsLayer } from "./AlertTools.ts"
import { CatalogTools, CatalogToolsLayer } from "./CatalogTools.ts"
import { accessOf } from "./MarginTool.ts"
import { RecommendationTools, RecommendationToolsLayer } from "./RecommendationTools.ts"
import { ReportTools, ReportToolsLayer } from "./ReportTools.ts"
import { RunTools, RunToolsLayer } from "./RunTools.ts"
import { WorkspaceTools, WorkspaceToolsLayer } from "./WorkspaceTools.ts"

/** Every tool of the margin MCP server: each REST capability, task-sized. */
export const MarginToolkit = Toolkit.merge(
  RunTools,
  RecommendationTools,
  AlertTools,
  CatalogTools,
  ReportTools,
  WorkspaceTools
)

/** The handlers of every tool, on the use cases of the use-case layer and `BackgroundRuns`. */
export const MarginToolkitLayer = Layer.mergeAll(
  RunToolsLayer,
  RecommendationToolsLayer,
  AlertToolsLayer,
  CatalogToolsLayer,
  ReportToolsLayer,
  WorkspaceToolsLayer
)

/** Tool name -> what it asks of the caller: read by the scope visibility on every request. */
export const toolAccess: ReadonlyMap<string, RouteAccessShape> = new Map(
  Object.values(MarginToolkit.tools).flatMap((tool) => {
    const access = accessOf(tool)
    return access === undefined ? [] : [[tool.name, access] as const]
  })
)
