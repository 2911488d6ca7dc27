import { CurrencyCode, formatMajorUnits } from "@margin/core/kernel/Money"
import { type StoreCatalogSource, StoreReadFailed } from "@margin/core/stores/StoreCatalogSource"
import type { StoreConnection } from "@margin/core/stores/StoreConnection"
import type { StoreOrderLine } from "@margin/core/stores/StoreOrderLine"
import type { StoreVariant } from "@margin/core/stores/StoreVariant"
import { PgSandboxStore } from "@margin/postgres"
import { Clock, Context, Effect, Layer, Schema, Stream } from "effect"
import type { SqlClient } from "effect/sql"
import { type SandboxPriceChange, sandboxOrderLines } from "./SandboxOrders.ts"

const everything = "sandbox:all"
const sincePrefix = "sandbox:since:"
const ordersSincePrefix = "sandbox:orders:since:"
const ordersFromPrefix = "sandbox:orders:from:"

/** Variants per query of the sandbox's table. */
const pageSize = 2000

const failed = (message: string) => new StoreReadFailed({ message: `sandbox store: ${message}`, restart: false })

/**
 * Reads the sandbox store for StoreSyncs, so that a demo shows prices changed in the store arriving in
 * the catalog. The sandbox knows only a price and a currency per variant: a sync brings those and
 * leaves every other field of the item as it is. A read is a query of its table (ordered by variant
 * ref, a page at a time), nothing to wait for; its handle says which variants (all, or changed since).
 * Its orders are simulated (SandboxOrders): weekly sales of each variant at the prices it had.
 */
export class SandboxCatalogSource extends Context.Service<SandboxCatalogSource, StoreCatalogSource["Service"]>()(
  "margin/stores/SandboxCatalogSource"
) {
  static readonly layer: Layer.Layer<SandboxCatalogSource, never, SqlClient.SqlClient> = Layer.effect(
    SandboxCatalogSource,
    Effect.gen(function* () {
      const context = yield* Effect.context<SqlClient.SqlClient>()

      const currencyOf = (variant: PgSandboxStore.SandboxVariant) =>
        Schema.decodeUnknownEffect(CurrencyCode)(variant.currency).pipe(
          Effect.mapError(() => failed(`variant ${variant.variantRef} has no valid currency`))
        )

      const toVariant = (variant: PgSandboxStore.SandboxVariant) =>
        currencyOf(variant).pipe(
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

      /**
       * The simulated orders (SandboxOrders) of every variant, from the start of the weeks ending after
       * the read's time, priced by the variant's accepted write-backs: what the store sold since.
       */
      const orderLines = (connection: StoreConnection, ref: string): Stream.Stream<StoreOrderLine, StoreReadFailed> => {
        const prefix = [ordersSincePrefix, ordersFromPrefix].find((candidate) => ref.startsWith(candidate))
        const from = prefix === undefined ? Number.NaN : Number(ref.slice(prefix.length))
        if (!Number.isSafeInteger(from)) {
          return Stream.fail(
            new StoreReadFailed({ message: `"${ref}" is not a sandbox read of orders`, restart: true })
          )
        }
        return Stream.unwrap(
          Effect.gen(function* () {
            const now = yield* Clock.currentTimeMillis
            const changes = new Map<string, Array<SandboxPriceChange>>()
            for (const write of yield* PgSandboxStore.listWrites(connection.workspaceId)) {
              const list = changes.get(write.variantRef) ?? []
              list.push({ at: write.writtenAt, from: write.oldPrice, to: write.newPrice })
              changes.set(write.variantRef, list)
            }
            return PgSandboxStore.changedVariants(connection.workspaceId, null, pageSize).pipe(
              Stream.mapEffect((variant) =>
                Effect.map(currencyOf(variant), (currency) =>
                  sandboxOrderLines({ ...variant, currency }, changes.get(variant.variantRef) ?? [], from, now)
                )
              ),
              Stream.flattenIterable
            )
          })
        ).pipe(
          Stream.mapError((error) => (error._tag === "StoreReadFailed" ? error : failed(error.message))),
          Stream.provideContext(context)
        )
      }

      return SandboxCatalogSource.of({
        begin: (_connection, since) => Effect.succeed(since === null ? everything : `${sincePrefix}${since}`),
        ready: () => Effect.void,
        variants,
        beginOrders: (_connection, since, from) =>
          Effect.succeed(since === null ? `${ordersFromPrefix}${from}` : `${ordersSincePrefix}${since}`),
        orderLines
      })
    })
  )
}
