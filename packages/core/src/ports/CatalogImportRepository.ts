import { Context, type Effect, type Option } from "effect"
import type { CatalogImportRecord } from "../CatalogImportRecord.ts"
import type { RepositoryError } from "../Errors.ts"
import type { CatalogImportId, WorkspaceId } from "../Ids.ts"

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
