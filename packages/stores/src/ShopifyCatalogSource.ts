import { CurrencyCode } from "@margin/core/kernel/Money"
import { type StoreCatalogSource, StoreReadFailed } from "@margin/core/stores/StoreCatalogSource"
import type { StoreConnection } from "@margin/core/stores/StoreConnection"
import type { StoreOrderLine } from "@margin/core/stores/StoreOrderLine"
import type { StoreVariant } from "@margin/core/stores/StoreVariant"
import { Clock, Context, Duration, Effect, Layer, Option, Result, Schema, Stream } from "effect"
import { HttpClient, HttpClientRequest, HttpClientResponse } from "effect/http"
import { makeShopifyAdminApi, type ShopifyOperation } from "./ShopifyAdminApi.ts"
import {
  type BulkRun,
  pollBulkOperation,
  readShopCurrency,
  runVariantsBulkQuery,
  storeVariantOf,
  VariantNode,
  variantsUpdatedAfter
} from "./ShopifyCatalogOperations.ts"
import { ShopifyConfig } from "./ShopifyConfig.ts"
import { makeShopifyEndpoints } from "./ShopifyEndpoints.ts"
import {
  BulkOrderLine,
  type OrderNode,
  ordersUpdatedAfter,
  refundedUnits,
  runOrdersBulkQuery,
  storeOrderLineOf
} from "./ShopifyOrderOperations.ts"

const bulkPrefix = "gid://shopify/BulkOperation/"
const incrementalPrefix = "updated_at:>"
const ordersPrefix = "orders:updated_at:>"

/** Variants per page of an incremental read (Shopify's most). */
export const variantsPageSize = 250

const failed = (message: string, restart = false) => new StoreReadFailed({ message: `Shopify: ${message}`, restart })

const decodeCurrency = (code: string) =>
  Schema.decodeUnknownEffect(CurrencyCode)(code).pipe(
    Effect.mapError(() => failed(`the shop's currency "${code}" is not an ISO 4217 code`))
  )

const decodeLine = Schema.decodeUnknownEffect(Schema.fromJsonString(VariantNode))
const decodeOrderLine = Schema.decodeUnknownResult(Schema.fromJsonString(BulkOrderLine))

/** An order of the bulk result, while its line items (the lines after it) are read. */
interface CurrentOrder {
  readonly id: string
  readonly processedAt: number
  readonly refunded: ReadonlyMap<string, number>
}

const orderOf = (node: OrderNode): CurrentOrder => ({
  id: node.id,
  processedAt: Date.parse(node.processedAt),
  refunded: refundedUnits(node)
})

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

      /** Starts a bulk operation; its id is the read's handle. */
      const runBulk = Effect.fnUntraced(function* (connection: StoreConnection, operation: ShopifyOperation<BulkRun>) {
        const started = yield* call(connection, operation)
        const run = started.bulkOperationRunQuery
        const userErrors = run?.userErrors ?? []
        if (userErrors.length > 0 || run?.bulkOperation == null) {
          return yield* failed(
            `bulkOperationRunQuery refused: ${userErrors.map((error) => error.message).join("; ") || "no operation"}`
          )
        }
        return run.bulkOperation.id
      })

      const begin = Effect.fn("ShopifyCatalogSource.begin")(function* (
        connection: StoreConnection,
        since: number | null
      ) {
        if (since !== null) return `${incrementalPrefix}${new Date(since).toISOString()}`
        return yield* runBulk(connection, runVariantsBulkQuery)
      })

      const beginOrders = Effect.fn("ShopifyCatalogSource.beginOrders")(function* (
        connection: StoreConnection,
        since: number | null,
        from: number
      ) {
        if (since !== null) return `${ordersPrefix}${new Date(since).toISOString()}`
        return yield* runBulk(connection, runOrdersBulkQuery(new Date(from).toISOString()))
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
      const downloadLines = (url: string) =>
        HttpClientResponse.stream(downloadClient.execute(HttpClientRequest.get(url))).pipe(
          Stream.decodeText(),
          Stream.splitLines,
          Stream.filter((line) => line.trim().length > 0),
          Stream.mapError((error) => failed(`the bulk result could not be downloaded: ${error.message}`))
        )

      const download = (url: string, currency: CurrencyCode): Stream.Stream<StoreVariant, StoreReadFailed> =>
        downloadLines(url).pipe(
          Stream.mapEffect((line) =>
            decodeLine(line).pipe(
              Effect.mapError(() => failed("a line of the bulk result is not a variant of the expected shape"))
            )
          ),
          Stream.map((node) => storeVariantOf(node, currency))
        )

      /**
       * The orders' JSONL: an order's line, then its line items' lines (`__parentId`), as Shopify writes
       * them; one order is held at a time, so memory stays flat. A line item whose order is not the one
       * just read breaks that order and fails the read (begun again by the next sync).
       */
      const downloadOrders = (url: string, currency: CurrencyCode): Stream.Stream<StoreOrderLine, StoreReadFailed> =>
        downloadLines(url).pipe(
          // A chunk of lines at a time: one effect per chunk, not per line (a year of orders is ~10^6 lines).
          Stream.mapAccumArrayEffect(
            (): CurrentOrder | null => null,
            (current, chunk) => {
              let order = current
              const read: Array<StoreOrderLine> = []
              for (const text of chunk) {
                const decoded = decodeOrderLine(text)
                if (Result.isFailure(decoded)) {
                  return Effect.fail(failed("a line of the orders' bulk result is not of the expected shape"))
                }
                const line = decoded.success
                if (!("__parentId" in line)) {
                  order = orderOf(line)
                } else if (order === null || order.id !== line.__parentId) {
                  return Effect.fail(failed(`line item ${line.id} does not follow its order ${line.__parentId}`, true))
                } else {
                  read.push(storeOrderLineOf(line, order, currency))
                }
              }
              return Effect.succeed([order, read] as const)
            }
          )
        )

      const bulkRead = <A>(
        connection: StoreConnection,
        id: string,
        read: (url: string, currency: CurrencyCode) => Stream.Stream<A, StoreReadFailed>
      ) =>
        Stream.unwrap(
          Effect.gen(function* () {
            const url = yield* finished(connection, id)
            if (url === null) return Stream.empty
            return read(url, yield* currencyOf(connection))
          })
        )

      /** An incremental read: pages of `operation(after)`, each turned into rows, until the last page. */
      const paged = <P extends { readonly shop: { readonly currencyCode: string } }, A>(
        connection: StoreConnection,
        operation: (after: string | null) => ShopifyOperation<P>,
        rowsOf: (page: P, currency: CurrencyCode) => ReadonlyArray<A>,
        pageInfoOf: (page: P) => { readonly hasNextPage: boolean; readonly endCursor: string | null }
      ) =>
        Stream.paginate<string | null | undefined, A, StoreReadFailed>(undefined, (after) =>
          Effect.gen(function* () {
            const page = yield* call(connection, operation(after ?? null))
            const currency = yield* decodeCurrency(page.shop.currencyCode)
            const pageInfo = pageInfoOf(page)
            return [
              rowsOf(page, currency),
              pageInfo.hasNextPage ? Option.some(pageInfo.endCursor) : Option.none()
            ] as const
          })
        )

      const updatedVariants = (connection: StoreConnection, updatedAfter: string) =>
        paged(
          connection,
          (after) => variantsUpdatedAfter(updatedAfter, after, variantsPageSize),
          (page, currency) => page.productVariants.nodes.map((node) => storeVariantOf(node, currency)),
          (page) => page.productVariants.pageInfo
        )

      /** A read by its handle: a bulk operation's id, or `prefix` and the instant of an incremental read. */
      const readOf =
        <A>(
          bulk: (url: string, currency: CurrencyCode) => Stream.Stream<A, StoreReadFailed>,
          prefix: string,
          incremental: (connection: StoreConnection, updatedAfter: string) => Stream.Stream<A, StoreReadFailed>
        ) =>
        (connection: StoreConnection, ref: string): Stream.Stream<A, StoreReadFailed> =>
          ref.startsWith(bulkPrefix)
            ? bulkRead(connection, ref, bulk)
            : ref.startsWith(prefix)
              ? incremental(connection, ref.slice(prefix.length))
              : Stream.fail(failed(`"${ref}" is not a read of this adapter`, true))

      const updatedOrders = (connection: StoreConnection, updatedAfter: string) =>
        paged(
          connection,
          (after) => ordersUpdatedAfter(updatedAfter, after),
          (page, currency) =>
            page.orders.nodes.flatMap((node) => {
              const order = orderOf(node)
              return node.lineItems.nodes.map((item) => storeOrderLineOf(item, order, currency))
            }),
          (page) => page.orders.pageInfo
        )

      return ShopifyCatalogSource.of({
        begin,
        ready,
        variants: readOf(download, incrementalPrefix, updatedVariants),
        beginOrders,
        orderLines: readOf(downloadOrders, ordersPrefix, updatedOrders)
      })
    })
  )
}
