import { Context, type Effect, type Option } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { CatalogImportId, WorkspaceId } from "../kernel/Ids.ts"
import type { CatalogImportRecord } from "./CatalogImportRecord.ts"

/** The imports of each workspace, as they ran (CatalogImports records one per import). */
export class CatalogImportRepository extends Context.Service<
  CatalogImportRepository,
  {
    /** Stores a finished import; inside the transaction of the import, it lands with the import or not at all. */
    readonly insert: (record: CatalogImportRecord) => Effect.Effect<void, RepositoryError>
    readonly get: (
      workspaceId: WorkspaceId,
      id: CatalogImportId
    ) => Effect.Effect<Option.Option<CatalogImportRecord>, RepositoryError>
  }
>()("margin/core/CatalogImportRepository") {}
