import { Context, Effect, Layer, Stream } from "effect"
import { StoreCatalogSource, StoreReadFailed } from "../stores/StoreCatalogSource.ts"
import type { StoreVariant } from "../stores/StoreVariant.ts"

/** A variant of the scripted store, with when it last changed (the store's clock, epoch ms). */
export interface ScriptedVariant {
  readonly variant: StoreVariant
  readonly updatedAt: number
}

export type ScriptedStep = "ready" | "variants"

interface Shop {
  variants: Map<string, ScriptedVariant>
  reads: Map<string, number | null>
  begun: number
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
    readonly failNext: (
      workspaceId: string,
      step: ScriptedStep,
      options: { readonly restart: boolean; readonly afterVariants?: number }
    ) => Effect.Effect<void>
    readonly begun: (workspaceId: string) => Effect.Effect<number>
  }
>()("margin/core/testing/ScriptedStoreCatalog") {
  static readonly layer: Layer.Layer<ScriptedStoreCatalog | StoreCatalogSource> = Layer.effectContext(
    Effect.sync(() => {
      const shops = new Map<string, Shop>()
      const shopOf = (workspaceId: string): Shop => {
        const found = shops.get(workspaceId)
        if (found !== undefined) return found
        const shop: Shop = { variants: new Map(), reads: new Map(), begun: 0, faults: [] }
        shops.set(workspaceId, shop)
        return shop
      }
      const takeFault = (shop: Shop, step: ScriptedStep) => {
        const index = shop.faults.findIndex((fault) => fault.step === step)
        return index < 0 ? undefined : shop.faults.splice(index, 1)[0]
      }
      const failure = (step: ScriptedStep, restart: boolean) =>
        new StoreReadFailed({ message: `scripted failure of ${step}`, restart })

      const source = StoreCatalogSource.of({
        begin: (connection, since) =>
          Effect.sync(() => {
            const shop = shopOf(connection.workspaceId)
            shop.begun += 1
            const ref = `read-${shop.begun}`
            shop.reads.set(ref, since)
            return ref
          }),
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
            const since = shop.reads.get(ref) ?? null
            const changed = [...shop.variants.values()]
              .filter((scripted) => since === null || scripted.updatedAt > since)
              .map((scripted) => scripted.variant)
            const fault = takeFault(shop, "variants")
            if (fault === undefined) return Stream.fromIterable(changed)
            if (fault.restart) shop.reads.delete(ref)
            return Stream.concat(
              Stream.fromIterable(changed.slice(0, fault.afterVariants)),
              Stream.fail(failure("variants", fault.restart))
            )
          })
      })
      const scripted = ScriptedStoreCatalog.of({
        put: (workspaceId, variants) =>
          Effect.sync(() => {
            const shop = shopOf(workspaceId)
            for (const scripted of variants) shop.variants.set(scripted.variant.variantRef, scripted)
          }),
        failNext: (workspaceId, step, { restart, afterVariants = 0 }) =>
          Effect.sync(() => void shopOf(workspaceId).faults.push({ step, restart, afterVariants })),
        begun: (workspaceId) => Effect.sync(() => shopOf(workspaceId).begun)
      })
      return Context.make(StoreCatalogSource, source).pipe(Context.add(ScriptedStoreCatalog, scripted))
    })
  )
}
