import { Layer } from "effect"
import { AuditTrail } from "../src/AuditTrail.ts"
import { CatalogImports } from "../src/CatalogImportService.ts"
import * as MemoryAdapters from "../src/memory/MemoryAdapters.ts"
import { catalogImportSuite } from "../testing/CatalogImportSuite.ts"

// Small batches: a file of some thousands of lines crosses many batch boundaries.
catalogImportSuite(
  "memory",
  CatalogImports.layerWith({ batchSize: 64 }).pipe(
    Layer.provide(AuditTrail.layer),
    Layer.provideMerge(MemoryAdapters.layer)
  )
)
