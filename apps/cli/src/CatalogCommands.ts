import { formatOfFileName } from "@margin/core/CatalogImport"
import { planLimits } from "@margin/core/Plan"
import { CatalogRepository } from "@margin/core/ports/CatalogRepository"
import { onDatabase } from "@margin/runtime/cli"
import { Effect, Result } from "effect"
import { Command, Flag } from "effect/cli"
import { importCatalogFile } from "./CatalogImporter.ts"
import { workspaceFlag } from "./Flags.ts"
import { OperatorError } from "./OperatorError.ts"
import { report } from "./Output.ts"
import { requireWorkspace } from "./WorkspaceCommands.ts"

const importCommand = Command.make(
  "import",
  {
    workspace: workspaceFlag,
    file: Flag.File("file", { mustExist: true }).pipe(
      Flag.withDescription("A .csv file (header line first) or a .jsonl file, one item per line")
    )
  },
  Effect.fn(function* ({ workspace: workspaceId, file }) {
    const workspace = yield* requireWorkspace(workspaceId)
    const format = formatOfFileName(file)
    if (Result.isFailure(format)) return yield* new OperatorError({ message: format.failure, kind: "usage" })
    const summary = yield* importCatalogFile(workspaceId, file, format.success)
    const items = yield* CatalogRepository.use((catalog) => catalog.count(workspaceId))
    const limit = planLimits[workspace.plan].catalogItems
    yield* report(
      {
        workspace_id: workspaceId,
        imported: summary.imported,
        updated: summary.updated,
        rejected: summary.rejected.map((rejected) => ({ line: rejected.line, error: rejected.error })),
        rejected_total: summary.rejectedTotal,
        catalog_items: items,
        catalog_items_limit: limit
      },
      (r) =>
        [
          `Imported ${r.imported} new item${r.imported === 1 ? "" : "s"}, updated ${r.updated}, rejected ${r.rejected_total} line${r.rejected_total === 1 ? "" : "s"} into ${r.workspace_id}`,
          ...r.rejected.map((rejected) => `  line ${rejected.line}: ${rejected.error}`),
          ...(r.rejected_total > r.rejected.length ? [`  ... and ${r.rejected_total - r.rejected.length} more`] : []),
          ...(limit !== null && items > limit
            ? [
                `Warning: ${items} items exceed the ${workspace.plan} plan's ${limit}: runs will be refused (plan_limit)`
              ]
            : [])
        ].join("\n")
    )
  })
).pipe(
  Command.withDescription("Import a catalog file: upsert by sku, streamed; bad lines are reported, good ones imported"),
  Command.withExamples([
    {
      command: "marginctl catalog import --workspace ws_01jh8x --file items.csv --json",
      description: "CSV with a header line, or .jsonl: one item per line"
    }
  ])
)

export const catalogCommand = Command.make("catalog").pipe(
  Command.withDescription("The workspace's catalog"),
  Command.withExamples([{ command: "marginctl catalog import --workspace ws_01jh8x --file items.csv" }]),
  Command.withSubcommands([onDatabase(importCommand)])
)
