import { CatalogImports } from "@margin/core/catalog/CatalogImports"
import { catalogImportSuite } from "@margin/core/testing/CatalogImportSuite"
import { Layer } from "effect"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

// The use case over the PostgreSQL adapters: one transaction, every column combination, on the database.
catalogImportSuite(
  PgTestAdapters.backend,
  CatalogImports.layerWith({ batchSize: 500 }).pipe(Layer.provideMerge(PgTestAdapters.layer))
)
