import { CurrencyCode } from "@margin/core/kernel/Money"
import { type StoreCatalogSource, StoreReadFailed } from "@margin/core/stores/StoreCatalogSource"
import type { StoreConnection } from "@margin/core/stores/StoreConnection"
import type { StoreVariant } from "@margin/core/stores/StoreVariant"
import { Clock, Context, Duration, Effect, Layer, Option, Schema, Stream } from "effect"
import { HttpClient, HttpClientRequest, HttpClientResponse } from "effect/http"
import { makeShopifyAdminApi, type ShopifyOperation } from "./ShopifyAdminApi.ts"
import {
  pollBulkOperation,
  readShopCurrency,
  runVariantsBulkQuery,
  storeVariantOf,
  VariantNode,
  variantsUpdatedAfter
} from "./ShopifyCatalogOperations.ts"
import { ShopifyConfig } from "./ShopifyConfig.ts"
import { makeShopifyEndpoints } from "./ShopifyEndpoints.ts"

const bulkPrefix = "gid://shopify/BulkOperation/"
const incrementalPrefix = "updated_at:>"

/** Variants per page of an incremental read (Shopify's most). */
export const variantsPageSize = 250

const failed = (message: string, restart = false) => new StoreReadFailed({ message: `Shopify: ${message}`, restart })

const decodeCurrency = (code: string) =>
  Schema.decodeUnknownEffect(CurrencyCode)(code).pipe(
    Effect.mapError(() => failed(`the shop's currency "${code}" is not an ISO 4217 code`))
  )

const decodeLine = Schema.decodeUnknownEffect(Schema.fromJsonString(VariantNode))

/**
 * Reads a Shopify shop's catalog for StoreSyncs, only ever reading. A full read is a bulk operation
 * (`bulkOperationRunQuery`; its id is the read's handle, so a sync resumed after a crash polls the same
 * operation with `node(id:)`), whose JSONL result is downloaded from the URL Shopify answers and
 * streamed line by line: memory stays flat whatever the shop's size. An incremental read pages through
 * `productVariants` with the search filter `updated_at:>`, 250 a page, with cursors. Every call goes
 * through ShopifyAdminApi: paced on the shop's rate-limit bucket, THROTTLED waited out.
 */
export class ShopifyCatalogSource extends Context.Service<ShopifyCatalogSource, StoreCatalogSource["Service"]>()(
  "margin/stores/ShopifyCatalogSource"
) {
  static readonly layer = Layer.effect(
    ShopifyCatalogSource,
    Effect.gen(function* () {
      const config = yield* ShopifyConfig
      const api = yield* makeShopifyAdminApi
      const endpointOf = yield* makeShopifyEndpoints
      // An error status of the download is a failure, not a body to parse.
      const downloadClient = HttpClient.filterStatusOk(yield* HttpClient.HttpClient)

      const call = <A>(connection: StoreConnection, operation: ShopifyOperation<A>) =>
        endpointOf(connection).pipe(
          Effect.flatMap((endpoint) => api.execute(endpoint, operation)),
          Effect.mapError((error) => failed(error.message))
        )

      const begin = Effect.fn("ShopifyCatalogSource.begin")(function* (
        connection: StoreConnection,
        since: number | null
      ) {
        if (since !== null) return `${incrementalPrefix}${new Date(since).toISOString()}`
        const started = yield* call(connection, runVariantsBulkQuery)
        const run = started.bulkOperationRunQuery
        const userErrors = run?.userErrors ?? []
        if (userErrors.length > 0 || run?.bulkOperation == null) {
          return yield* failed(
            `bulkOperationRunQuery refused: ${userErrors.map((error) => error.message).join("; ") || "no operation"}`
          )
        }
        return run.bulkOperation.id
      })

      /** The bulk operation once it has finished: its result's URL (null when it found nothing). */
      const finished = Effect.fnUntraced(function* (connection: StoreConnection, id: string) {
        const deadline = (yield* Clock.currentTimeMillis) + Duration.toMillis(config.bulkTimeout)
        while (true) {
          const { node } = yield* call(connection, pollBulkOperation(id))
          if (node === null) return yield* failed(`bulk operation ${id} is unknown to the shop`, true)
          switch (node.status) {
            case "COMPLETED":
              return node.url
            case "FAILED":
            case "CANCELED":
            case "CANCELING":
            case "EXPIRED":
              return yield* failed(
                `bulk operation ${id} ended ${node.status}${node.errorCode === null ? "" : ` (${node.errorCode})`}`,
                true
              )
          }
          if ((yield* Clock.currentTimeMillis) >= deadline) {
            // Still running at the shop: the next sync polls the same operation.
            return yield* failed(
              `bulk operation ${id} still ${node.status} after ${Duration.format(config.bulkTimeout)}`
            )
          }
          yield* Effect.sleep(config.bulkPollInterval)
        }
      })

      const ready = Effect.fn("ShopifyCatalogSource.ready")(function* (connection: StoreConnection, ref: string) {
        if (ref.startsWith(bulkPrefix)) yield* finished(connection, ref)
      })

      const currencyOf = (connection: StoreConnection) =>
        call(connection, readShopCurrency).pipe(Effect.flatMap(({ shop }) => decodeCurrency(shop.currencyCode)))

      /**
       * The JSONL result, line by line. The URL is signed and at another host: our token never goes there.
       * A failed download is tried again by the next sync with the same operation; once its result has
       * expired, the poll answers EXPIRED and the sync begins a new one.
       */
      const download = (url: string, currency: CurrencyCode): Stream.Stream<StoreVariant, StoreReadFailed> =>
        HttpClientResponse.stream(downloadClient.execute(HttpClientRequest.get(url))).pipe(
          Stream.decodeText(),
          Stream.splitLines,
          Stream.filter((line) => line.trim().length > 0),
          Stream.mapEffect((line) => decodeLine(line)),
          Stream.map((node) => storeVariantOf(node, currency)),
          Stream.mapError((error) =>
            error._tag === "SchemaError"
              ? failed("a line of the bulk result is not a variant of the expected shape")
              : failed(`the bulk result could not be downloaded: ${error.message}`)
          )
        )

      const bulkVariants = (connection: StoreConnection, id: string) =>
        Stream.unwrap(
          Effect.gen(function* () {
            const url = yield* finished(connection, id)
            if (url === null) return Stream.empty
            return download(url, yield* currencyOf(connection))
          })
        )

      const updatedVariants = (connection: StoreConnection, updatedAfter: string) =>
        Stream.paginate<string | null | undefined, StoreVariant, StoreReadFailed>(undefined, (after) =>
          Effect.gen(function* () {
            const page = yield* call(connection, variantsUpdatedAfter(updatedAfter, after ?? null, variantsPageSize))
            const currency = yield* decodeCurrency(page.shop.currencyCode)
            const { nodes, pageInfo } = page.productVariants
            return [
              nodes.map((node) => storeVariantOf(node, currency)),
              pageInfo.hasNextPage ? Option.some(pageInfo.endCursor) : Option.none()
            ] as const
          })
        )

      const variants = (connection: StoreConnection, ref: string): Stream.Stream<StoreVariant, StoreReadFailed> =>
        ref.startsWith(bulkPrefix)
          ? bulkVariants(connection, ref)
          : ref.startsWith(incrementalPrefix)
            ? updatedVariants(connection, ref.slice(incrementalPrefix.length))
            : Stream.fail(failed(`"${ref}" is not a read of this adapter`, true))

      return ShopifyCatalogSource.of({ begin, ready, variants })
    })
  )
}
