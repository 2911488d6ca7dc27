import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { Context, Effect, Layer, Result, Schema } from "effect"
import { availableAt, type Bucket, fromStatus, type ThrottleStatus } from "../ShopifyThrottle.ts"

/**
 * A local HTTP server that speaks the slice of Shopify's Admin GraphQL contract the ShopifyStore uses:
 * `shop { currencyCode }` + `productVariant(id)` and `productVariantsBulkUpdate`, and the catalog reads
 * of a store sync (ShopifyCatalogSource): `bulkOperationRunQuery`, `node(id:)` on a BulkOperation (which
 * runs `bulkMillis`, then is COMPLETED, or FAILED / CANCELED / EXPIRED when scripted, one at a time per
 * shop), its JSONL result served on loopback at `/bulk/<n>.jsonl` without the token (a signed URL at
 * Shopify), and `productVariants(first, after, query: "updated_at:>'...'")` pages with cursors; the orders
 * of a store sync: a bulk query over `orders(query: "processed_at:>='...'")` (its JSONL an order's line
 * then its line items' with `__parentId`) and `orders(first, after, query: "updated_at:>'...'")` pages
 * (charged their actual cost); `shop { name myshopifyDomain currencyCode }` (the read
 * that checks a connection). With Shopify's
 * leaky-bucket cost limits (THROTTLED answers with `extensions.cost.throttleStatus`), and scripted
 * faults: HTTP statuses, hangs (before or after applying a write), THROTTLED, userErrors, GraphQL errors,
 * and a price changed by someone else. It records every write it applies, so tests can count them.
 * Plain node:http on 127.0.0.1 with a random port; started and stopped by its layer.
 */

export type FakeOperation = "read" | "write" | "shop" | "bulk" | "poll" | "variants" | "orders" | "download"

/** A line item of a fake order; `variantId` null: the variant was deleted since. */
export interface FakeLineItem {
  readonly id: number
  readonly variantId: string | null
  readonly quantity: number
  /** The unit price after all discounts, decimal text of the shop's currency. */
  readonly unitPrice: string
  /** The unit price before discounts; left out, `unitPrice`. */
  readonly originalUnitPrice?: string
}

/** An order of the fake shop (epoch ms); each refund lists the units of its line items refunded. */
export interface FakeOrder {
  readonly processedAt: number
  readonly updatedAt: number
  readonly lineItems: ReadonlyArray<FakeLineItem>
  readonly refunds?: ReadonlyArray<ReadonlyArray<{ readonly lineItemId: number; readonly quantity: number }>>
}

export type FakeFault =
  /** Answer this HTTP status (a 5xx, a 429...) without executing anything. */
  | { readonly _tag: "Status"; readonly status: number; readonly retryAfterSeconds?: number }
  /** Never answer, without executing anything (the client must time out). */
  | { readonly _tag: "Hang" }
  /** Execute the call, then never answer: the write landed but the caller cannot know. */
  | { readonly _tag: "HangAfterExecuting" }
  /** Answer THROTTLED and drain the bucket, as Shopify does when the shop's budget is spent. */
  | { readonly _tag: "Throttled" }
  /** Answer these mutation userErrors and write nothing. */
  | { readonly _tag: "UserErrors"; readonly errors: ReadonlyArray<{ readonly code: string; readonly message: string }> }
  /** Answer a top-level GraphQL error with this extensions.code. */
  | { readonly _tag: "GraphqlError"; readonly code: string; readonly message: string }
  /** Someone else sets the variant's price just before this call runs (between our read and our write). */
  | { readonly _tag: "PriceChangedMeanwhile"; readonly variantId: string; readonly price: string }

export interface FakeVariant {
  readonly productId: string
  readonly price: string
  /** What a store sync reads besides the price; left out, a plain default (see `variantNode`). */
  readonly sku?: string | null
  readonly title?: string
  readonly productTitle?: string
  readonly productType?: string
  readonly tags?: ReadonlyArray<string>
  readonly status?: "ACTIVE" | "DRAFT" | "ARCHIVED"
  readonly compareAtPrice?: string | null
  readonly cost?: string | null
  readonly inventory?: number | null
  /** When the variant last changed (epoch ms): what `updated_at:>` filters on. */
  readonly updatedAt?: number
}

/** How a scripted bulk operation ends instead of COMPLETED. */
export type FakeBulkEnd = "FAILED" | "CANCELED" | "EXPIRED"

export interface FakeWrite {
  readonly variantId: string
  readonly price: string
}

export interface FakeRequest {
  readonly operation: FakeOperation | "unknown"
  readonly answer: "ok" | "throttled" | "fault" | "unauthorized" | "not_found" | "bad_request"
  /** When the fake received it (epoch ms, its own clock): pacing is measured on these. */
  readonly at: number
  /** The bucket's points the fake reported after this call (`currentlyAvailable`), when it reported them. */
  readonly available: number | null
}

export interface FakeShopifyOptions {
  readonly accessToken: string
  readonly apiVersion: string
  readonly currencyCode: string
  /** What `shop { name }` answers. */
  readonly shopName: string
  readonly bucket: ThrottleStatus
  /** What each operation costs against the bucket (`requestedQueryCost`). */
  readonly costs: Readonly<Record<FakeOperation, number>>
  /** How long a bulk operation runs before it is COMPLETED. */
  readonly bulkMillis: number
}

export const fakeShopifyDefaults: FakeShopifyOptions = {
  accessToken: "shpat_fake_token",
  apiVersion: "2025-07",
  currencyCode: "USD",
  shopName: "Fake Shop",
  bucket: { maximumAvailable: 2000, currentlyAvailable: 2000, restoreRate: 100 },
  // A page of 250 variants: 2 + 250 nodes of 4 objects (variant, product, inventory item, unit cost).
  // A page of orders: 10 orders of 1 + 10 line items of 6 + 2 + 2 refunds of (1 + 5 refund line items of 2
  // + 2), + 2 (ShopifyOrderOperations); its actual cost (what the bucket loses) counts what it held.
  costs: { read: 3, write: 10, shop: 1, bulk: 10, poll: 1, variants: 1002, orders: 892, download: 0 },
  bulkMillis: 50
}

/** The shop the fake answers for. */
export const fakeShop = "fake-shop.myshopify.com"

const RequestBody = Schema.fromJsonString(
  Schema.Struct({ query: Schema.String, variables: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown)) })
)
const ReadVariables = Schema.Struct({ id: Schema.String })
const WriteVariables = Schema.Struct({
  productId: Schema.String,
  variants: Schema.Array(Schema.Struct({ id: Schema.String, price: Schema.String }))
})

const PageVariables = Schema.Struct({
  query: Schema.String,
  first: Schema.Number,
  after: Schema.optionalKey(Schema.NullOr(Schema.String))
})
const PollVariables = Schema.Struct({ id: Schema.String })
const OrdersPageVariables = Schema.Struct({
  query: Schema.String,
  first: Schema.Number,
  lines: Schema.Number,
  after: Schema.optionalKey(Schema.NullOr(Schema.String))
})

const operationOf = (document: string): FakeOperation | "unknown" =>
  document.includes("orders(first:")
    ? "orders"
    : document.includes("productVariantsBulkUpdate(")
      ? "write"
      : document.includes("bulkOperationRunQuery(")
        ? "bulk"
        : document.includes("node(id:")
          ? "poll"
          : document.includes("productVariants(")
            ? "variants"
            : document.includes("productVariant(")
              ? "read"
              : document.includes("shop {")
                ? "shop"
                : "unknown"

const variantNumber = (id: string): number => Number(id.slice(id.lastIndexOf("/") + 1))

/** A variant as Shopify answers the fields a store sync reads (ShopifyCatalogOperations.VariantNode). */
const variantNode = (id: string, variant: FakeVariant) => ({
  id,
  sku: variant.sku ?? null,
  title: variant.title ?? "Default Title",
  price: variant.price,
  compareAtPrice: variant.compareAtPrice ?? null,
  inventoryQuantity: variant.inventory ?? 0,
  updatedAt: new Date(variant.updatedAt ?? 0).toISOString(),
  inventoryItem: {
    tracked: variant.inventory !== null,
    unitCost: variant.cost == null ? null : { amount: variant.cost, currencyCode: "USD" }
  },
  product: {
    id: variant.productId,
    title: variant.productTitle ?? "Product",
    productType: variant.productType ?? "",
    tags: variant.tags ?? [],
    status: variant.status ?? "ACTIVE"
  }
})

interface FakeBulkOperation {
  readonly id: string
  readonly completesAt: number
  readonly end: FakeBulkEnd | "COMPLETED"
  /** Set for a bulk query over orders: those processed at or after it. */
  readonly ordersFrom: number | null
}

const BulkVariables = Schema.Struct({ query: Schema.String })

/** An order as Shopify answers its own fields (ShopifyOrderOperations.OrderNode). */
const orderNode = (id: string, order: FakeOrder) => ({
  id,
  processedAt: new Date(order.processedAt).toISOString(),
  updatedAt: new Date(order.updatedAt).toISOString(),
  refunds: (order.refunds ?? []).map((refund) => ({
    refundLineItems: {
      edges: refund.map((item) => ({
        node: { quantity: item.quantity, lineItem: { id: `gid://shopify/LineItem/${item.lineItemId}` } }
      }))
    }
  }))
})

const money = (amount: string, currencyCode: string) => ({ shopMoney: { amount, currencyCode } })

/** A line item as Shopify answers it (ShopifyOrderOperations.LineItemNode), with the variant's sku now. */
const lineItemNode = (item: FakeLineItem, sku: string | null, currencyCode: string) => ({
  id: `gid://shopify/LineItem/${item.id}`,
  quantity: item.quantity,
  variant: item.variantId === null ? null : { id: item.variantId, sku },
  discountedUnitPriceAfterAllDiscountsSet: money(item.unitPrice, currencyCode),
  originalUnitPriceSet: money(item.originalUnitPrice ?? item.unitPrice, currencyCode)
})

/** What a page of orders really cost: Shopify refunds the requested points its nodes did not use. */
const ordersActualCost = (orders: ReadonlyArray<FakeOrder>): number =>
  2 +
  orders.reduce(
    (sum, order) =>
      sum +
      1 +
      6 * order.lineItems.length +
      (order.refunds ?? []).reduce((refunds, refund) => refunds + 1 + 2 * refund.length, 0),
    0
  )

export class FakeShopify extends Context.Service<
  FakeShopify,
  {
    /** Base URL to configure as the ShopifyStore's `baseUrl`. */
    readonly url: string
    readonly options: FakeShopifyOptions
    readonly setVariant: (variantId: string, variant: FakeVariant) => Effect.Effect<void>
    /** Someone else changes the price in the shop admin. */
    readonly setPrice: (variantId: string, price: string) => Effect.Effect<void>
    readonly price: (variantId: string) => Effect.Effect<string | undefined>
    /** Scripts the next `times` calls (of `operation`, or of any kind) to meet `fault`. */
    readonly failNext: (
      fault: FakeFault,
      options?: { readonly times?: number; readonly operation?: FakeOperation }
    ) => Effect.Effect<void>
    readonly setBucket: (status: ThrottleStatus) => Effect.Effect<void>
    /** Adds or replaces one order (`gid://shopify/Order/<n>`): a new order, or one changed by a refund. */
    readonly setOrder: (orderId: string, order: FakeOrder) => Effect.Effect<void>
    /** Replaces every order at once. */
    readonly setOrders: (all: ReadonlyMap<string, FakeOrder>) => Effect.Effect<void>
    /** Replaces every variant at once (a shop of any size, for benchmarks). */
    readonly setVariants: (variants: ReadonlyMap<string, FakeVariant>) => Effect.Effect<void>
    /** The next bulk operation started ends this way instead of COMPLETED. */
    readonly endNextBulk: (end: FakeBulkEnd) => Effect.Effect<void>
    /** The next bulk operation over orders ends this way (a variants' operation before it is not affected). */
    readonly endNextOrdersBulk: (end: FakeBulkEnd) => Effect.Effect<void>
    /** How many bulk operations were started. */
    readonly bulkOperations: Effect.Effect<number>
    readonly writes: Effect.Effect<ReadonlyArray<FakeWrite>>
    readonly requests: Effect.Effect<ReadonlyArray<FakeRequest>>
  }
>()("margin/stores/testing/FakeShopify") {
  static readonly layer = (overrides: Partial<FakeShopifyOptions> = {}) =>
    Layer.effect(FakeShopify, makeFakeShopify({ ...fakeShopifyDefaults, ...overrides }))
}

interface ScriptedFault {
  readonly fault: FakeFault
  readonly operation: FakeOperation | undefined
  remaining: number
}

const makeFakeShopify = (options: FakeShopifyOptions) =>
  Effect.gen(function* () {
    let variants = new Map<string, FakeVariant>()
    let orders = new Map<string, FakeOrder>()
    const bulks = new Map<string, FakeBulkOperation>()
    const bulkEnds: Array<FakeBulkEnd> = []
    const ordersBulkEnds: Array<FakeBulkEnd> = []
    let baseUrl = ""
    const faults: Array<ScriptedFault> = []
    const writes: Array<FakeWrite> = []
    const requests: Array<FakeRequest> = []
    const hanging = new Set<ServerResponse>()
    let bucket: Bucket = fromStatus(options.bucket, Date.now())

    const throttleStatus = (): ThrottleStatus => ({
      maximumAvailable: bucket.maximum,
      currentlyAvailable: Math.floor(availableAt(bucket, Date.now())),
      restoreRate: bucket.restoreRate
    })

    const respond = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { "content-type": "application/json", ...headers })
      response.end(JSON.stringify(body))
    }

    const answer = (
      response: ServerResponse,
      operation: FakeOperation,
      body: { readonly data?: unknown; readonly errors?: unknown },
      actualCost: number | null,
      status: ThrottleStatus = throttleStatus()
    ) =>
      respond(response, 200, {
        ...body,
        extensions: {
          cost: {
            requestedQueryCost: options.costs[operation],
            actualQueryCost: actualCost,
            throttleStatus: status
          }
        }
      })

    const takeFault = (operation: FakeOperation): FakeFault | undefined => {
      const index = faults.findIndex((scripted) => scripted.operation === undefined || scripted.operation === operation)
      const scripted = faults[index]
      if (scripted === undefined) return undefined
      scripted.remaining -= 1
      if (scripted.remaining <= 0) faults.splice(index, 1)
      return scripted.fault
    }

    /** Runs the call against the variants; returns the GraphQL `data` and `errors` Shopify would answer. */
    const execute = (
      operation: FakeOperation,
      variables: unknown,
      userErrors: ReadonlyArray<{ readonly code: string; readonly message: string }> | undefined
    ): { readonly data?: unknown; readonly errors?: unknown; readonly actualCost?: number } => {
      if (operation === "shop") {
        return {
          data: { shop: { name: options.shopName, myshopifyDomain: fakeShop, currencyCode: options.currencyCode } }
        }
      }
      if (operation === "bulk") return runBulk(variables)
      if (operation === "orders") return ordersPage(variables)
      if (operation === "poll") return pollBulk(variables)
      if (operation === "variants") return variantsPage(variables)
      if (operation === "read") {
        const decoded = Schema.decodeUnknownResult(ReadVariables)(variables)
        if (Result.isFailure(decoded))
          return { errors: [{ message: "Variable $id of type ID! was provided invalid value" }] }
        const variant = variants.get(decoded.success.id)
        return {
          data: {
            shop: { currencyCode: options.currencyCode },
            productVariant:
              variant === undefined
                ? null
                : { id: decoded.success.id, price: variant.price, product: { id: variant.productId } }
          }
        }
      }
      const decoded = Schema.decodeUnknownResult(WriteVariables)(variables)
      if (Result.isFailure(decoded)) return { errors: [{ message: "Variable $variants was provided invalid value" }] }
      const bulkUpdate = (
        errors: ReadonlyArray<{
          readonly field: ReadonlyArray<string>
          readonly code: string
          readonly message: string
        }>
      ) => ({
        data: {
          productVariantsBulkUpdate: {
            productVariants: errors.length === 0 ? decoded.success.variants : null,
            userErrors: errors
          }
        }
      })
      if (userErrors !== undefined)
        return bulkUpdate(userErrors.map((error) => ({ field: ["variants", "0"], ...error })))
      const { productId } = decoded.success
      if (![...variants.values()].some((variant) => variant.productId === productId)) {
        return bulkUpdate([{ field: ["productId"], code: "PRODUCT_DOES_NOT_EXIST", message: "Product does not exist" }])
      }
      const refused = decoded.success.variants.flatMap((input, index) => {
        const field = ["variants", String(index)]
        if (variants.get(input.id)?.productId !== productId) {
          return [
            {
              field: [...field, "id"],
              code: "PRODUCT_VARIANT_DOES_NOT_EXIST",
              message: "Product variant does not exist"
            }
          ]
        }
        if (!/^-?\d+(\.\d+)?$/.test(input.price))
          return [{ field: [...field, "price"], code: "INVALID_INPUT", message: "Price is invalid" }]
        if (input.price.startsWith("-")) {
          return [
            {
              field: [...field, "price"],
              code: "GREATER_THAN_OR_EQUAL_TO",
              message: "Price must be greater than or equal to 0"
            }
          ]
        }
        return []
      })
      if (refused.length > 0) return bulkUpdate(refused)
      for (const input of decoded.success.variants) {
        variants.set(input.id, { ...variants.get(input.id), productId, price: input.price, updatedAt: Date.now() })
        writes.push({ variantId: input.id, price: input.price })
      }
      return bulkUpdate([])
    }

    const runBulk = (variables: unknown) => {
      const now = Date.now()
      const query = Schema.decodeUnknownResult(BulkVariables)(variables)
      if (Result.isFailure(query)) return { errors: [{ message: "Variable $query was provided invalid value" }] }
      const ordersFilter = /orders\(query: "processed_at:>='([^']+)'"\)/.exec(query.success.query)
      const ordersFrom = ordersFilter?.[1] === undefined ? null : Date.parse(ordersFilter[1])
      const running = [...bulks.values()].find((bulk) => bulk.completesAt > now)
      if (running !== undefined) {
        return {
          data: {
            bulkOperationRunQuery: {
              bulkOperation: null,
              userErrors: [
                {
                  field: null,
                  message: `A bulk query operation for this app and shop is already in progress: ${running.id}.`
                }
              ]
            }
          }
        }
      }
      const id = `gid://shopify/BulkOperation/${bulks.size + 1}`
      bulks.set(id, {
        id,
        completesAt: now + options.bulkMillis,
        end: (ordersFrom === null ? bulkEnds : ordersBulkEnds).shift() ?? "COMPLETED",
        ordersFrom
      })
      return { data: { bulkOperationRunQuery: { bulkOperation: { id, status: "CREATED" }, userErrors: [] } } }
    }

    const pollBulk = (variables: unknown) => {
      const decoded = Schema.decodeUnknownResult(PollVariables)(variables)
      if (Result.isFailure(decoded))
        return { errors: [{ message: "Variable $id of type ID! was provided invalid value" }] }
      const bulk = bulks.get(decoded.success.id)
      if (bulk === undefined) return { data: { node: null } }
      const done = Date.now() >= bulk.completesAt
      const status = done ? bulk.end : "RUNNING"
      const completed = status === "COMPLETED"
      return {
        data: {
          node: {
            id: bulk.id,
            status,
            errorCode: status === "FAILED" ? "INTERNAL_SERVER_ERROR" : null,
            objectCount: String(completed ? (bulk.ordersFrom === null ? variants : orders).size : 0),
            url:
              completed && (bulk.ordersFrom === null ? variants : orders).size > 0
                ? `${baseUrl}/bulk/${variantNumber(bulk.id)}.jsonl`
                : null
          }
        }
      }
    }

    /** A page of the variants updated after the filter's instant, by id, with Shopify's opaque cursors. */
    const variantsPage = (variables: unknown) => {
      const decoded = Schema.decodeUnknownResult(PageVariables)(variables)
      if (Result.isFailure(decoded)) return { errors: [{ message: "Variable $query was provided invalid value" }] }
      const { query, first, after } = decoded.success
      const filter = /^updated_at:>'([^']+)'$/.exec(query)
      const since = filter?.[1] === undefined ? Number.NaN : Date.parse(filter[1])
      if (Number.isNaN(since)) return { errors: [{ message: `Invalid search query: ${query}` }] }
      const afterNumber = after == null ? -1 : Number(Buffer.from(after, "base64").toString("utf8"))
      const matching = [...variants.entries()]
        .filter(([id, variant]) => (variant.updatedAt ?? 0) > since && variantNumber(id) > afterNumber)
        .sort(([a], [b]) => variantNumber(a) - variantNumber(b))
      const page = matching.slice(0, Math.min(first, 250))
      const last = page.at(-1)
      return {
        data: {
          shop: { currencyCode: options.currencyCode },
          productVariants: {
            nodes: page.map(([id, variant]) => variantNode(id, variant)),
            pageInfo: {
              hasNextPage: matching.length > page.length,
              endCursor: last === undefined ? null : Buffer.from(String(variantNumber(last[0]))).toString("base64")
            }
          }
        }
      }
    }

    /**
     * A page of the orders updated after the filter's instant, oldest change first (sortKey UPDATED_AT),
     * with at most `lines` line items each; its actual cost is what it held (`ordersActualCost`).
     */
    const ordersPage = (variables: unknown) => {
      const decoded = Schema.decodeUnknownResult(OrdersPageVariables)(variables)
      if (Result.isFailure(decoded)) return { errors: [{ message: "Variable $query was provided invalid value" }] }
      const { query, first, lines, after } = decoded.success
      const filter = /^updated_at:>'([^']+)'$/.exec(query)
      const since = filter?.[1] === undefined ? Number.NaN : Date.parse(filter[1])
      if (Number.isNaN(since)) return { errors: [{ message: `Invalid search query: ${query}` }] }
      const key = (id: string, order: FakeOrder) => [order.updatedAt, variantNumber(id)] as const
      const afterKey =
        after == null ? null : (JSON.parse(Buffer.from(after, "base64").toString("utf8")) as [number, number])
      const matching = [...orders.entries()]
        .filter(([id, order]) => {
          if (order.updatedAt <= since) return false
          if (afterKey === null) return true
          const [updatedAt, number] = key(id, order)
          return updatedAt > afterKey[0] || (updatedAt === afterKey[0] && number > afterKey[1])
        })
        .sort(([a, x], [b, y]) => x.updatedAt - y.updatedAt || variantNumber(a) - variantNumber(b))
      const page = matching.slice(0, Math.min(first, 250))
      const last = page.at(-1)
      return {
        actualCost: ordersActualCost(page.map(([, order]) => order)),
        data: {
          shop: { currencyCode: options.currencyCode },
          orders: {
            nodes: page.map(([id, order]) => ({
              ...orderNode(id, order),
              lineItems: {
                nodes: order.lineItems
                  .slice(0, lines)
                  .map((item) => lineItemNode(item, skuOf(item.variantId), options.currencyCode)),
                pageInfo: { hasNextPage: order.lineItems.length > lines }
              }
            })),
            pageInfo: {
              hasNextPage: matching.length > page.length,
              endCursor:
                last === undefined ? null : Buffer.from(JSON.stringify(key(last[0], last[1]))).toString("base64")
            }
          }
        }
      }
    }

    const skuOf = (variantId: string | null): string | null =>
      variantId === null ? null : (variants.get(variantId)?.sku ?? null)

    /** The JSONL lines of an orders bulk result: each order, then its line items with `__parentId`. */
    const orderLines = function* (from: number): Generator<string> {
      for (const [id, order] of orders) {
        if (order.processedAt < from) continue
        yield JSON.stringify(orderNode(id, order))
        for (const item of order.lineItems) {
          yield JSON.stringify({ ...lineItemNode(item, skuOf(item.variantId), options.currencyCode), __parentId: id })
        }
      }
    }

    const variantLines = function* (): Generator<string> {
      for (const [id, variant] of variants) yield JSON.stringify(variantNode(id, variant))
    }

    /** The JSONL result of a bulk operation: one line per object, written as the socket drains. */
    const download = (response: ServerResponse, path: string) => {
      const fault = takeFault("download")
      requests.push({
        operation: "download",
        answer: fault === undefined ? "ok" : "fault",
        at: Date.now(),
        available: null
      })
      if (fault?._tag === "Status") return respond(response, fault.status, { errors: `fake status ${fault.status}` })
      const bulk = bulks.get(`gid://shopify/BulkOperation/${path.slice("/bulk/".length, -".jsonl".length)}`)
      if (bulk === undefined || bulk.end !== "COMPLETED") return respond(response, 404, { errors: "Not Found" })
      response.writeHead(200, { "content-type": "application/jsonl" })
      const entries = bulk.ordersFrom === null ? variantLines() : orderLines(bulk.ordersFrom)
      const writeSome = () => {
        while (true) {
          const lines: Array<string> = []
          for (let n = 0; n < 500; n++) {
            const next = entries.next()
            if (next.done === true) break
            lines.push(`${next.value}\n`)
          }
          if (lines.length === 0) return response.end()
          if (!response.write(lines.join(""))) return response.once("drain", writeSome)
        }
      }
      writeSome()
    }

    const handle = (request: IncomingMessage, response: ServerResponse, rawBody: string) => {
      if (request.method === "GET" && request.url?.startsWith("/bulk/") === true && request.url.endsWith(".jsonl")) {
        return download(response, request.url)
      }
      if (request.method !== "POST" || request.url !== `/admin/api/${options.apiVersion}/graphql.json`) {
        requests.push({ operation: "unknown", answer: "not_found", at: Date.now(), available: null })
        return respond(response, 404, { errors: "Not Found" })
      }
      if (request.headers["x-shopify-access-token"] !== options.accessToken) {
        requests.push({ operation: "unknown", answer: "unauthorized", at: Date.now(), available: null })
        return respond(response, 401, {
          errors: "[API] Invalid API key or access token (unrecognized login or wrong password)"
        })
      }
      const body = Schema.decodeUnknownResult(RequestBody)(rawBody)
      const operation = Result.isSuccess(body) ? operationOf(body.success.query) : "unknown"
      if (Result.isFailure(body) || operation === "unknown") {
        requests.push({ operation: "unknown", answer: "bad_request", at: Date.now(), available: null })
        return respond(response, 200, {
          errors: [{ message: "Parse error: this fake knows only the price and catalog operations" }]
        })
      }
      const fault = takeFault(operation)
      const at = Date.now()
      const record = (answer: FakeRequest["answer"]) => requests.push({ operation, answer, at, available: null })
      // An answer with the bucket's status, recorded with the points it reports.
      const answerWithStatus = (
        kind: "ok" | "throttled",
        body: { readonly data?: unknown; readonly errors?: unknown },
        actualCost: number | null
      ) => {
        const status = throttleStatus()
        requests.push({ operation, answer: kind, at, available: status.currentlyAvailable })
        return answer(response, operation, body, actualCost, status)
      }
      switch (fault?._tag) {
        case "Status":
          record("fault")
          return respond(
            response,
            fault.status,
            { errors: `fake status ${fault.status}` },
            fault.retryAfterSeconds === undefined ? {} : { "retry-after": String(fault.retryAfterSeconds) }
          )
        case "Hang":
          record("fault")
          hanging.add(response)
          return
        case "GraphqlError":
          record("fault")
          return answer(
            response,
            operation,
            { errors: [{ message: fault.message, extensions: { code: fault.code } }] },
            null
          )
        case "Throttled":
          bucket = { ...bucket, available: 0, at: Date.now() }
          return answerWithStatus("throttled", throttledBody, null)
        case "PriceChangedMeanwhile": {
          const variant = variants.get(fault.variantId)
          if (variant !== undefined) variants.set(fault.variantId, { ...variant, price: fault.price })
          break
        }
      }
      const cost = options.costs[operation]
      const now = at
      const available = availableAt(bucket, now)
      if (available < cost) {
        bucket = { ...bucket, available, at: now }
        return answerWithStatus("throttled", throttledBody, null)
      }
      const { actualCost, ...result } = execute(
        operation,
        body.success.variables,
        fault?._tag === "UserErrors" ? fault.errors : undefined
      )
      // Shopify asks for the requested cost to be available, then charges the actual cost.
      bucket = { ...bucket, available: available - (actualCost ?? cost), at: now }
      if (fault?._tag === "HangAfterExecuting") {
        record("fault")
        hanging.add(response)
        return
      }
      return answerWithStatus("ok", result, actualCost ?? cost)
    }

    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => handle(request, response, Buffer.concat(chunks).toString("utf8")))
    })

    const url = yield* Effect.acquireRelease(
      Effect.callback<string>((resume) => {
        server.once("error", (error) => resume(Effect.die(error)))
        server.listen(0, "127.0.0.1", () => {
          const address = server.address()
          if (address !== null && typeof address === "object") baseUrl = `http://127.0.0.1:${address.port}`
          resume(
            address !== null && typeof address === "object"
              ? Effect.succeed(baseUrl)
              : Effect.die(new Error("the fake Shopify server has no TCP address"))
          )
        })
      }),
      () =>
        Effect.callback<void>((resume) => {
          for (const response of hanging) response.destroy()
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )

    return FakeShopify.of({
      url,
      options,
      setVariant: (variantId, variant) => Effect.sync(() => void variants.set(variantId, variant)),
      setPrice: (variantId, price) =>
        Effect.sync(() => {
          const variant = variants.get(variantId)
          if (variant !== undefined) variants.set(variantId, { ...variant, price, updatedAt: Date.now() })
        }),
      price: (variantId) => Effect.sync(() => variants.get(variantId)?.price),
      failNext: (fault, scripted = {}) =>
        Effect.sync(() => void faults.push({ fault, operation: scripted.operation, remaining: scripted.times ?? 1 })),
      setBucket: (status) =>
        Effect.sync(() => {
          bucket = fromStatus(status, Date.now())
        }),
      setVariants: (all) =>
        Effect.sync(() => {
          variants = new Map(all)
        }),
      setOrder: (orderId, order) => Effect.sync(() => void orders.set(orderId, order)),
      setOrders: (all) =>
        Effect.sync(() => {
          orders = new Map(all)
        }),
      endNextBulk: (end) => Effect.sync(() => void bulkEnds.push(end)),
      endNextOrdersBulk: (end) => Effect.sync(() => void ordersBulkEnds.push(end)),
      bulkOperations: Effect.sync(() => bulks.size),
      writes: Effect.sync(() => [...writes]),
      requests: Effect.sync(() => [...requests])
    })
  })

const throttledBody = {
  errors: [
    {
      message: "Throttled",
      extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" }
    }
  ]
}
