import { CatalogRepository } from "@margin/core/catalog/CatalogRepository"
import { RepositoryError } from "@margin/core/kernel/Errors"
import { Effect, Layer } from "effect"

/** The catalog's database is down: listing the catalog answers 503 service_unavailable, retryable. */
export const unavailableCatalog = Layer.effect(
  CatalogRepository,
  CatalogRepository.useSync((catalog) =>
    CatalogRepository.of({
      ...catalog,
      list: () =>
        Effect.fail(new RepositoryError({ operation: "CatalogRepository.list", message: "connection refused" }))
    })
  )
)
