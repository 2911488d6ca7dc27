import { assert, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import type { StoreSale } from "../stores/StoreSale.ts"
import { StoreSalesRepository } from "../stores/StoreSalesRepository.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { usd } from "./Fixtures.ts"
import { seedWorkspace } from "./Seed.ts"

export type StoreSalesContractServices = StoreSalesRepository | WorkspaceRepository | IdGenerator

const sale = (lineRef: string, sku: string, soldAt: number, units: number, unitPrice: number): StoreSale => ({
  lineRef,
  sku,
  soldAt,
  units,
  unitPrice,
  currency: usd
})

/** The StoreSalesRepository port's contract: every adapter must pass it. */
export const storeSalesRepositoryContract = <E>(name: string, services: Layer.Layer<StoreSalesContractServices, E>) =>
  layer(services)(`StoreSalesRepository contract (${name})`, (it) => {
    it.effect("sums units and revenue per sku and interval; a line written again replaces itself", () =>
      Effect.gen(function* () {
        const repository = yield* StoreSalesRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        yield* repository.record(workspace.id, [
          sale("l1", "A", 100, 2, 1000),
          sale("l2", "A", 150, 1, 700),
          sale("l3", "A", 250, 4, 900),
          sale("l4", "B", 120, 3, 500),
          // Before the first boundary and at the last one: outside the partition.
          sale("l5", "A", 99, 5, 100),
          sale("l6", "A", 300, 5, 100),
          // Refunded entirely: nothing to sum.
          sale("l7", "B", 260, 0, 500)
        ])
        yield* repository.record(other.id, [sale("l1", "A", 100, 50, 1)])
        const boundaries = [100, 200, 300]
        assert.deepStrictEqual(yield* repository.totals(workspace.id, ["A", "B"], boundaries), [
          { sku: "A", interval: 0, units: 3, revenue: 2700, currency: usd },
          { sku: "A", interval: 1, units: 4, revenue: 3600, currency: usd },
          { sku: "B", interval: 0, units: 3, revenue: 1500, currency: usd }
        ])
        // The order was read again: one unit of l1 refunded since (twice in one batch: the last one stands).
        yield* repository.record(workspace.id, [sale("l1", "A", 100, 2, 1000), sale("l1", "A", 100, 1, 1000)])
        assert.deepStrictEqual(yield* repository.totals(workspace.id, ["A"], boundaries), [
          { sku: "A", interval: 0, units: 2, revenue: 1700, currency: usd },
          { sku: "A", interval: 1, units: 4, revenue: 3600, currency: usd }
        ])
        assert.deepStrictEqual(yield* repository.totals(workspace.id, ["C"], boundaries), [])
      })
    )

    it.effect("names each sku sold between two times once, in sku order", () =>
      Effect.gen(function* () {
        const repository = yield* StoreSalesRepository
        const workspace = yield* seedWorkspace()
        yield* repository.record(workspace.id, [
          sale("m1", "Z", 500, 1, 100),
          sale("m2", "Y", 600, 1, 100),
          sale("m3", "Z", 700, 1, 100),
          sale("m4", "X", 100, 1, 100)
        ])
        assert.deepStrictEqual(yield* repository.skusSoldBetween(workspace.id, 500, 800), ["Y", "Z"])
        // The end is left out.
        assert.deepStrictEqual(yield* repository.skusSoldBetween(workspace.id, 100, 600), ["X", "Z"])
        assert.deepStrictEqual(yield* repository.skusSoldBetween(workspace.id, 800, 900), [])
      })
    )
  })
