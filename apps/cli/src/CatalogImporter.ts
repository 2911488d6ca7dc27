import type { CatalogFormat } from "@margin/core/catalog/CatalogImport"
import { type CatalogImportResult, CatalogImports } from "@margin/core/catalog/CatalogImports"
import type { RepositoryError } from "@margin/core/kernel/Errors"
import type { WorkspaceId } from "@margin/core/kernel/Ids"
import { Effect, FileSystem, Stream } from "effect"
import { OperatorError } from "./OperatorError.ts"

const readFailure = (path: string, reason: string) => new OperatorError({ message: `cannot read ${path}: ${reason}` })

/** The actor of the CLI's imports (audit events). */
const marginctl = { _tag: "SystemActor", name: "marginctl" } as const

/**
 * Streams a catalog file into the workspace through the `CatalogImports` use case: line by line,
 * so memory stays flat whatever the file's size, in one transaction (docs/cli.md, section catalog import).
 * A file that cannot be read, or read as a catalog, fails the import as a whole.
 */
export const importCatalogFile = Effect.fn("importCatalogFile")(function* (
  workspaceId: WorkspaceId,
  path: string,
  format: CatalogFormat,
  dryRun = false
): Effect.fn.Return<CatalogImportResult, OperatorError | RepositoryError, FileSystem.FileSystem | CatalogImports> {
  const fs = yield* FileSystem.FileSystem
  const imports = yield* CatalogImports
  const info = yield* fs.stat(path).pipe(Effect.mapError((error) => readFailure(path, error.message)))
  if (info.type !== "File") return yield* readFailure(path, "not a file")
  const lines = fs.stream(path).pipe(
    Stream.decodeText(),
    Stream.splitLines,
    Stream.mapError((error) => readFailure(path, error.message))
  )
  return yield* imports
    .run({ workspaceId, format, lines, dryRun, actor: marginctl })
    .pipe(Effect.catchTag("InvalidInput", (invalid) => new OperatorError({ message: `${path}: ${invalid.message}` })))
})
