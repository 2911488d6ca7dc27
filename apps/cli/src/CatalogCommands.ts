import { formatOfFileName } from "@margin/core/catalog/CatalogImport"
import { CatalogRepository } from "@margin/core/catalog/CatalogRepository"
import { planLimits } from "@margin/core/workspaces/Plan"
import { catalogImportSummaryJson } from "@margin/edge/wire"
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
    ),
    dryRun: Flag.Boolean("dry-run").pipe(
      Flag.withDescription("Decide every line and report what the import would do; write nothing"),
      Flag.withDefault(false)
    )
  },
  Effect.fn(function* ({ workspace: workspaceId, file, dryRun }) {
    const workspace = yield* requireWorkspace(workspaceId)
    const format = formatOfFileName(file)
    if (Result.isFailure(format)) return yield* new OperatorError({ message: format.failure, kind: "usage" })
    const { summary } = yield* importCatalogFile(workspaceId, file, format.success, dryRun)
    const items = yield* CatalogRepository.use((catalog) => catalog.count(workspaceId))
    const limit = planLimits[workspace.plan].catalogItems
    yield* report(
      {
        workspace_id: workspaceId,
        dry_run: dryRun,
        ...catalogImportSummaryJson(summary),
        catalog_items: items,
        catalog_items_limit: limit
      },
      (r) =>
        [
          `${r.dry_run ? "Dry run (nothing written): would have" : "Imported into"} ${r.workspace_id}: ` +
            `${r.created} created, ${r.updated} updated (${r.price_changed} price, ${r.cost_changed} cost, ` +
            `${r.other_changed} other), ${r.unchanged} unchanged, ${r.rejected_total} rejected`,
          ...(r.stale_price > 0
            ? [`  ${r.stale_price} line${r.stale_price === 1 ? "" : "s"} kept the item's newer price (stale_price)`]
            : []),
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
  Command.withDescription(
    "Import a catalog file by sku, streamed, in one transaction: a line changes only what it mentions; bad lines are reported, good ones imported"
  ),
  Command.withExamples([
    {
      command: "marginctl catalog import --workspace ws_01jh8x --file items.csv --json",
      description: "CSV with a header line, or .jsonl: one item per line"
    },
    {
      command: "marginctl catalog import --workspace ws_01jh8x --file prices.csv --dry-run",
      description: "What the import would do, nothing written"
    }
  ])
)

export const catalogCommand = Command.make("catalog").pipe(
  Command.withDescription("The workspace's catalog"),
  Command.withExamples([{ command: "marginctl catalog import --workspace ws_01jh8x --file items.csv" }]),
  Command.withSubcommands([onDatabase(importCommand)])
)
