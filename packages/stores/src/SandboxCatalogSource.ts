import { CurrencyCode, formatMajorUnits } from "@margin/core/kernel/Money"
import { type StoreCatalogSource, StoreReadFailed } from "@margin/core/stores/StoreCatalogSource"
import type { StoreConnection } from "@margin/core/stores/StoreConnection"
import type { StoreVariant } from "@margin/core/stores/StoreVariant"
import { PgSandboxStore } from "@margin/postgres"
import { Context, Effect, Layer, Schema, Stream } from "effect"
import type { SqlClient } from "effect/sql"

const everything = "sandbox:all"
const sincePrefix = "sandbox:since:"

/** Variants per query of the sandbox's table. */
const pageSize = 2000

const failed = (message: string) => new StoreReadFailed({ message: `sandbox store: ${message}`, restart: false })

/**
 * Reads the sandbox store for StoreSyncs, so that a demo shows prices changed in the store arriving in
 * the catalog. The sandbox knows only a price and a currency per variant: a sync brings those and
 * leaves every other field of the item as it is. A read is a query of its table (ordered by variant
 * ref, a page at a time), nothing to wait for; its handle says which variants (all, or changed since).
 */
export class SandboxCatalogSource extends Context.Service<SandboxCatalogSource, StoreCatalogSource["Service"]>()(
  "margin/stores/SandboxCatalogSource"
) {
  static readonly layer: Layer.Layer<SandboxCatalogSource, never, SqlClient.SqlClient> = Layer.effect(
    SandboxCatalogSource,
    Effect.gen(function* () {
      const context = yield* Effect.context<SqlClient.SqlClient>()

      const toVariant = (variant: PgSandboxStore.SandboxVariant) =>
        Schema.decodeUnknownEffect(CurrencyCode)(variant.currency).pipe(
          Effect.mapError(() => failed(`variant ${variant.variantRef} has no valid currency`)),
          Effect.map(
            (currency): StoreVariant => ({
              sku: variant.sku,
              variantRef: variant.variantRef,
              currency,
              price: formatMajorUnits(variant.price, currency)
            })
          )
        )

      const variants = (connection: StoreConnection, ref: string): Stream.Stream<StoreVariant, StoreReadFailed> => {
        const since = ref === everything ? null : Number(ref.slice(sincePrefix.length))
        if (since !== null && !(ref.startsWith(sincePrefix) && Number.isSafeInteger(since))) {
          return Stream.fail(new StoreReadFailed({ message: `"${ref}" is not a sandbox read`, restart: true }))
        }
        return PgSandboxStore.changedVariants(connection.workspaceId, since, pageSize).pipe(
          Stream.mapError((error) => failed(error.message)),
          Stream.mapEffect(toVariant),
          Stream.provideContext(context)
        )
      }

      return SandboxCatalogSource.of({
        begin: (_connection, since) => Effect.succeed(since === null ? everything : `${sincePrefix}${since}`),
        ready: () => Effect.void,
        variants
      })
    })
  )
}
