import { Layer } from "effect"
import * as MemoryAdapters from "../memory/MemoryAdapters.ts"
import { catalogImportSuite } from "../testing/CatalogImportSuite.ts"
import { CatalogImports } from "./CatalogImports.ts"

// Small batches: a file of some thousands of lines crosses many batch boundaries.
catalogImportSuite("memory", CatalogImports.layerWith({ batchSize: 64 }).pipe(Layer.provideMerge(MemoryAdapters.layer)))
