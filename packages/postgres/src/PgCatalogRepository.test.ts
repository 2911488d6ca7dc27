import { catalogRepositoryContract } from "@margin/core/testing/CatalogRepositoryContract"
import { Layer } from "effect"
import * as PgCatalogRepository from "./PgCatalogRepository.ts"
import * as PgIdGenerator from "./PgIdGenerator.ts"
import * as PgWorkspaceRepository from "./PgWorkspaceRepository.ts"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"
import { TestDatabase } from "./testing/TestDatabase.ts"

catalogRepositoryContract(PgTestAdapters.backend, PgTestAdapters.layer)

// Every tagged scope past the id list's limit: the runs' other way through a tagged catalog.
catalogRepositoryContract(
  `${PgTestAdapters.backend}, tagged scopes paged`,
  Layer.mergeAll(
    PgCatalogRepository.layerWith({ tagScopeLimit: 1 }).pipe(Layer.provideMerge(PgIdGenerator.layer)),
    PgWorkspaceRepository.layer
  ).pipe(Layer.provideMerge(TestDatabase.layer), Layer.orDie)
)
