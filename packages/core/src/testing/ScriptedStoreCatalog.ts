import { Context, Effect, Layer, Stream } from "effect"
import { StoreCatalogSource, StoreReadFailed } from "../stores/StoreCatalogSource.ts"
import type { StoreOrderLine } from "../stores/StoreOrderLine.ts"
import type { StoreVariant } from "../stores/StoreVariant.ts"

/** A variant of the scripted store, with when it last changed (the store's clock, epoch ms). */
export interface ScriptedVariant {
  readonly variant: StoreVariant
  readonly updatedAt: number
}

/** An order line of the scripted store, with when its order last changed (a refund changes it). */
export interface ScriptedOrderLine {
  readonly line: StoreOrderLine
  readonly updatedAt: number
}

export type ScriptedStep = "ready" | "variants" | "orders"

interface ScriptedRead {
  readonly since: number | null
  /** An orders read: the lines of orders placed from then on (a full read). */
  readonly from?: number
}

interface Shop {
  variants: Map<string, ScriptedVariant>
  lines: Map<string, ScriptedOrderLine>
  reads: Map<string, ScriptedRead>
  begun: number
  ordersBegun: number
  faults: Array<{ readonly step: ScriptedStep; readonly restart: boolean; readonly afterVariants: number }>
}

/**
 * A store for StoreSyncs' suite: each workspace's variants in memory, read like a platform's adapter
 * (a read begun, made ready, streamed), with scripted failures of a step. `begun` counts the reads begun,
 * so that a test can see a crashed sync's read finished rather than begun again.
 */
export class ScriptedStoreCatalog extends Context.Service<
  ScriptedStoreCatalog,
  {
    readonly put: (workspaceId: string, variants: ReadonlyArray<ScriptedVariant>) => Effect.Effect<void>
    /** Adds or replaces order lines (by line ref): a new order, or an order changed by a refund. */
    readonly putOrderLines: (workspaceId: string, lines: ReadonlyArray<ScriptedOrderLine>) => Effect.Effect<void>
    readonly failNext: (
      workspaceId: string,
      step: ScriptedStep,
      options: { readonly restart: boolean; readonly afterVariants?: number }
    ) => Effect.Effect<void>
    readonly begun: (workspaceId: string) => Effect.Effect<number>
    readonly ordersBegun: (workspaceId: string) => Effect.Effect<number>
  }
>()("margin/core/testing/ScriptedStoreCatalog") {
  static readonly layer: Layer.Layer<ScriptedStoreCatalog | StoreCatalogSource> = Layer.effectContext(
    Effect.sync(() => {
      const shops = new Map<string, Shop>()
      const shopOf = (workspaceId: string): Shop => {
        const found = shops.get(workspaceId)
        if (found !== undefined) return found
        const shop: Shop = {
          variants: new Map(),
          lines: new Map(),
          reads: new Map(),
          begun: 0,
          ordersBegun: 0,
          faults: []
        }
        shops.set(workspaceId, shop)
        return shop
      }
      const takeFault = (shop: Shop, step: ScriptedStep) => {
        const index = shop.faults.findIndex((fault) => fault.step === step)
        return index < 0 ? undefined : shop.faults.splice(index, 1)[0]
      }
      const failure = (step: ScriptedStep, restart: boolean) =>
        new StoreReadFailed({ message: `scripted failure of ${step}`, restart })

      const beginRead = (workspaceId: string, read: ScriptedRead) =>
        Effect.sync(() => {
          const shop = shopOf(workspaceId)
          // `begun` counts the catalog's reads; the orders' are counted apart.
          const ref = read.from === undefined ? `read-${++shop.begun}` : `orders-${++shop.ordersBegun}`
          shop.reads.set(ref, read)
          return ref
        })
      /** What a read streams: all of `rows` it asks for, or those up to a scripted failure. */
      const streamed = <A>(shop: Shop, ref: string, step: ScriptedStep, rows: ReadonlyArray<A>) => {
        const fault = takeFault(shop, step)
        if (fault === undefined) return Stream.fromIterable(rows)
        if (fault.restart) shop.reads.delete(ref)
        return Stream.concat(
          Stream.fromIterable(rows.slice(0, fault.afterVariants)),
          Stream.fail(failure(step, fault.restart))
        )
      }

      const source = StoreCatalogSource.of({
        begin: (connection, since) => beginRead(connection.workspaceId, { since }),
        beginOrders: (connection, since, from) => beginRead(connection.workspaceId, { since, from }),
        ready: (connection, ref) =>
          Effect.suspend(() => {
            const shop = shopOf(connection.workspaceId)
            if (!shop.reads.has(ref)) return Effect.fail(failure("ready", true))
            const fault = takeFault(shop, "ready")
            return fault === undefined ? Effect.void : Effect.fail(failure("ready", fault.restart))
          }),
        variants: (connection, ref) =>
          Stream.suspend(() => {
            const shop = shopOf(connection.workspaceId)
            const since = shop.reads.get(ref)?.since ?? null
            const changed = [...shop.variants.values()]
              .filter((scripted) => since === null || scripted.updatedAt > since)
              .map((scripted) => scripted.variant)
            return streamed(shop, ref, "variants", changed)
          }),
        orderLines: (connection, ref) =>
          Stream.suspend(() => {
            const shop = shopOf(connection.workspaceId)
            const read = shop.reads.get(ref) ?? { since: null, from: 0 }
            const lines = [...shop.lines.values()]
              .filter((scripted) =>
                read.since === null ? scripted.line.soldAt >= (read.from ?? 0) : scripted.updatedAt > read.since
              )
              .map((scripted) => scripted.line)
            return streamed(shop, ref, "orders", lines)
          })
      })
      const scripted = ScriptedStoreCatalog.of({
        put: (workspaceId, variants) =>
          Effect.sync(() => {
            const shop = shopOf(workspaceId)
            for (const scripted of variants) shop.variants.set(scripted.variant.variantRef, scripted)
          }),
        putOrderLines: (workspaceId, lines) =>
          Effect.sync(() => {
            const shop = shopOf(workspaceId)
            for (const scripted of lines) shop.lines.set(scripted.line.lineRef, scripted)
          }),
        failNext: (workspaceId, step, { restart, afterVariants = 0 }) =>
          Effect.sync(() => void shopOf(workspaceId).faults.push({ step, restart, afterVariants })),
        begun: (workspaceId) => Effect.sync(() => shopOf(workspaceId).begun),
        ordersBegun: (workspaceId) => Effect.sync(() => shopOf(workspaceId).ordersBegun)
      })
      return Context.make(StoreCatalogSource, source).pipe(Context.add(ScriptedStoreCatalog, scripted))
    })
  )
}
