import { Layer } from "effect"
import { CatalogImports } from "../src/CatalogImportService.ts"
import * as MemoryAdapters from "../src/memory/MemoryAdapters.ts"
import { catalogImportSuite } from "../testing/CatalogImportSuite.ts"

// Small batches: a file of some thousands of lines crosses many batch boundaries.
catalogImportSuite("memory", CatalogImports.layerWith({ batchSize: 64 }).pipe(Layer.provideMerge(MemoryAdapters.layer)))
