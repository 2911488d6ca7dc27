import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option, Stream } from "effect"
import { decideImportLine } from "../catalog/CatalogImportDecision.ts"
import type { CatalogItem } from "../catalog/CatalogItem.ts"
import type { CatalogPatch } from "../catalog/CatalogPatch.ts"
import { CatalogRepository, type RunItem } from "../catalog/CatalogRepository.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { CurrencyCode } from "../kernel/Money.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { aCatalogItemInput, fixtureNow, minuteMs } from "./Fixtures.ts"
import { assertPaging, createdAtKey } from "./PagingContract.ts"
import { expectSome, itemBySku, seedItem, seedWorkspace } from "./Seed.ts"

export type CatalogContractServices = CatalogRepository | WorkspaceRepository | IdGenerator

const skus = (items: ReadonlyArray<CatalogItem>) => items.map((item) => item.sku).sort()

/** The CatalogRepository port's contract: every adapter must pass it. */
export const catalogRepositoryContract = <E>(name: string, services: Layer.Layer<CatalogContractServices, E>) =>
  layer(services)(`CatalogRepository contract (${name})`, (it) => {
    it.effect("upsertMany inserts new skus with fresh ids and updates existing ones in place", () =>
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const workspace = yield* seedWorkspace()
        const inserted = yield* catalog.upsertMany(
          workspace.id,
          [aCatalogItemInput({ sku: "A" }), aCatalogItemInput({ sku: "B", cost: null })],
          fixtureNow
        )
        assert.deepStrictEqual(inserted, { inserted: 2, updated: 0 })
        const a = yield* itemBySku(workspace.id, "A")
        assert.strictEqual(a.workspaceId, workspace.id)
        assert.strictEqual(a.createdAt, fixtureNow)
        assert.strictEqual(a.updatedAt, fixtureNow)
        // The import is the first time a cost is seen: it is the snapshot until a run analyses the item.
        assert.strictEqual(a.analysedCost, a.cost)
        assert.deepStrictEqual(a.priceHistory, [])
        const b = yield* itemBySku(workspace.id, "B")
        assert.deepStrictEqual([b.cost, b.analysedCost], [null, null])

        const later = fixtureNow + minuteMs
        const changed = aCatalogItemInput({ sku: "A", title: "Renamed", cost: 650, tags: ["sale"], inventory: 3 })
        const summary = yield* catalog.upsertMany(workspace.id, [changed, aCatalogItemInput({ sku: "C" })], later)
        assert.deepStrictEqual(summary, { inserted: 1, updated: 1 })
        const updated = yield* itemBySku(workspace.id, "A")
        assert.strictEqual(updated.id, a.id)
        assert.strictEqual(updated.createdAt, fixtureNow)
        assert.strictEqual(updated.updatedAt, later)
        assert.strictEqual(
          updated.analysedCost,
          a.cost,
          "an update keeps the snapshot: the next run compares against it"
        )
        assert.deepStrictEqual(
          { title: updated.title, cost: updated.cost, tags: updated.tags, inventory: updated.inventory },
          { title: "Renamed", cost: 650, tags: ["sale"], inventory: 3 }
        )
        assert.strictEqual(yield* catalog.count(workspace.id), 3)
      })
    )

    it.effect("upsertMany stores every field as given, and keeps store refs an update leaves out", () =>
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const workspace = yield* seedWorkspace()
        const full = aCatalogItemInput({
          sku: "R-1",
          title: 'Ünïcode "quoted", with; separators',
          tags: ["a", "b c", "d-e"],
          price: 2 ** 40,
          cost: 0,
          compareAtPrice: 5000,
          minPrice: 100,
          maxPrice: 9000,
          inventory: -3,
          unitsSold30d: 12,
          storeProductRef: "gid://shopify/Product/1",
          storeVariantRef: "gid://shopify/ProductVariant/2",
          competitorPrice: 4500
        })
        const bare = aCatalogItemInput({
          sku: "R-2",
          tags: [],
          cost: null,
          compareAtPrice: null,
          minPrice: null,
          maxPrice: null,
          inventory: null
        })
        yield* catalog.upsertMany(workspace.id, [full, bare], fixtureNow)
        const stored = yield* itemBySku(workspace.id, "R-1")
        const { storeProductRef, storeVariantRef, ...fields } = full
        assert.deepStrictEqual(
          { ...stored, id: null, createdAt: null, updatedAt: null },
          {
            ...fields,
            storeProductRef: storeProductRef ?? null,
            storeVariantRef: storeVariantRef ?? null,
            id: null,
            workspaceId: workspace.id,
            analysedCost: 0,
            unitsCountedAt: null,
            priceHistory: [],
            priceSetAt: fixtureNow,
            writtenBackFrom: null,
            createdAt: null,
            updatedAt: null
          }
        )
        const empty = yield* itemBySku(workspace.id, "R-2")
        assert.deepStrictEqual(
          [empty.tags, empty.cost, empty.inventory, empty.storeProductRef, empty.storeVariantRef],
          [[], null, null, null, null]
        )

        // Refs left out keep the item's; refs given replace them.
        yield* catalog.upsertMany(workspace.id, [{ ...fields, title: "Renamed" }], fixtureNow + minuteMs)
        const kept = yield* itemBySku(workspace.id, "R-1")
        assert.deepStrictEqual(
          [kept.title, kept.storeProductRef, kept.storeVariantRef],
          ["Renamed", "gid://shopify/Product/1", "gid://shopify/ProductVariant/2"]
        )
        yield* catalog.upsertMany(workspace.id, [{ ...fields, storeVariantRef: "3" }], fixtureNow + minuteMs)
        const moved = yield* itemBySku(workspace.id, "R-1")
        assert.deepStrictEqual([moved.storeProductRef, moved.storeVariantRef], ["gid://shopify/Product/1", "3"])
      })
    )

    it.effect("the same sku in two workspaces is two items", () =>
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const one = yield* seedWorkspace()
        const two = yield* seedWorkspace()
        const first = yield* seedItem(one.id, { sku: "SHARED", price: 1000 })
        const second = yield* seedItem(two.id, { sku: "SHARED", price: 2000 })
        assert.notStrictEqual(first.id, second.id)
        assert.strictEqual((yield* itemBySku(one.id, "SHARED")).price, 1000)
        assert.strictEqual(yield* catalog.count(two.id), 1)
      })
    )

    it.effect("a changed price keeps the outgoing price and its units as price history", () =>
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const workspace = yield* seedWorkspace()
        yield* seedItem(workspace.id, { sku: "H", price: 1000, unitsSold30d: 30 })
        yield* catalog.upsertMany(
          workspace.id,
          [aCatalogItemInput({ sku: "H", price: 1000, unitsSold30d: 31 })],
          fixtureNow
        )
        assert.deepStrictEqual((yield* itemBySku(workspace.id, "H")).priceHistory, [], "same price: no observation")
        yield* catalog.upsertMany(
          workspace.id,
          [aCatalogItemInput({ sku: "H", price: 1100, unitsSold30d: 25 })],
          fixtureNow
        )
        const item = yield* itemBySku(workspace.id, "H")
        assert.deepStrictEqual(item.priceHistory, [{ price: 1000, units: 31 }])
        yield* catalog.setPrice(workspace.id, item.id, 1200, fixtureNow + minuteMs)
        const repriced = yield* itemBySku(workspace.id, "H")
        assert.strictEqual(repriced.price, 1200)
        assert.strictEqual(repriced.updatedAt, fixtureNow + minuteMs)
        assert.deepStrictEqual(repriced.priceHistory, [
          { price: 1000, units: 31 },
          { price: 1100, units: 25 }
        ])
      })
    )

    it.effect("the history records each period once: a new period adds a point, a known one adds nothing", () =>
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const workspace = yield* seedWorkspace()
        const dayMs = 86_400_000
        // A file observed at `at` (its units counted up to then), imported a minute later.
        const importAt = (at: number, price: string, units: number) => {
          const patch: CatalogPatch = {
            sku: "T",
            title: "Mug",
            currency: CurrencyCode.make("USD"),
            price,
            unitsSold30d: units,
            observedAt: at
          }
          return catalog.applyImport(workspace.id, [{ line: 2, patch }], (current, line) =>
            decideImportLine(current, line, workspace.id, at + minuteMs)
          )
        }
        yield* importAt(fixtureNow, "10.00", 30)
        const created = yield* itemBySku(workspace.id, "T")
        assert.deepStrictEqual([created.unitsCountedAt, created.priceHistory], [fixtureNow, []])
        // Two write-backs in the period: the units were sold at 10.00, recorded once.
        yield* catalog.setPrice(workspace.id, created.id, 1100, fixtureNow + 2 * minuteMs)
        yield* catalog.setPrice(workspace.id, created.id, 1200, fixtureNow + 3 * minuteMs)
        const first = [{ price: 1000, units: 30, at: fixtureNow }]
        assert.deepStrictEqual((yield* itemBySku(workspace.id, "T")).priceHistory, first)
        // The next period's units at 12.00: the period of the 30 units is recorded, nothing to add.
        yield* importAt(fixtureNow + 30 * dayMs, "12.00", 25)
        const next = yield* itemBySku(workspace.id, "T")
        assert.deepStrictEqual(
          [next.unitsSold30d, next.unitsCountedAt, next.priceHistory],
          [25, fixtureNow + 30 * dayMs, first]
        )
        // The same file again: a known state adds nothing.
        const [again] = yield* importAt(fixtureNow + 30 * dayMs, "12.00", 25)
        assert.strictEqual(again?._tag, "Unchanged")
        // A period later at the same price: the outgoing period becomes a point, the price unchanged.
        yield* importAt(fixtureNow + 60 * dayMs, "12.00", 27)
        const later = yield* itemBySku(workspace.id, "T")
        assert.deepStrictEqual(
          [later.price, later.unitsSold30d, later.unitsCountedAt, later.priceHistory],
          [1200, 27, fixtureNow + 60 * dayMs, [...first, { price: 1200, units: 25, at: fixtureNow + 30 * dayMs }]]
        )
        // An upsert does not say when its units were counted.
        yield* catalog.upsertMany(
          workspace.id,
          [aCatalogItemInput({ sku: "T", price: 1200, unitsSold30d: 20 })],
          fixtureNow
        )
        assert.strictEqual((yield* itemBySku(workspace.id, "T")).unitsCountedAt, null)
      })
    )

    it.effect("a price history point keeps the competitor price of its time, when the item had one", () =>
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const workspace = yield* seedWorkspace()
        yield* catalog.upsertMany(
          workspace.id,
          [aCatalogItemInput({ sku: "C", price: 1000, unitsSold30d: 30, competitorPrice: 950 })],
          fixtureNow
        )
        // The competitor moves with the same import that moves the price: the point keeps the one before.
        yield* catalog.upsertMany(
          workspace.id,
          [aCatalogItemInput({ sku: "C", price: 1100, unitsSold30d: 28, competitorPrice: 900 })],
          fixtureNow
        )
        const item = yield* itemBySku(workspace.id, "C")
        assert.deepStrictEqual(item.priceHistory, [{ price: 1000, units: 30, competitorPrice: 950 }])
        // Without a competitor price the point has none.
        yield* catalog.upsertMany(
          workspace.id,
          [aCatalogItemInput({ sku: "C", price: 1100, unitsSold30d: 20, competitorPrice: null })],
          fixtureNow
        )
        yield* catalog.setPrice(workspace.id, item.id, 1200, fixtureNow + minuteMs)
        assert.deepStrictEqual((yield* itemBySku(workspace.id, "C")).priceHistory, [
          { price: 1000, units: 30, competitorPrice: 950 },
          { price: 1100, units: 20 }
        ])
      })
    )

    it.effect("get, setPrice and markAnalysed reach the workspace's own items only", () =>
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const item = yield* seedItem(workspace.id, { cost: 700 })
        assert.deepStrictEqual(yield* catalog.get(workspace.id, item.id), Option.some(item))
        assert.isTrue(Option.isNone(yield* catalog.get(other.id, item.id)))
        yield* catalog.setPrice(other.id, item.id, 1, fixtureNow)
        yield* catalog.markAnalysed(other.id, [{ id: item.id, cost: 1 }])
        assert.deepStrictEqual(yield* catalog.get(workspace.id, item.id), Option.some(item))
        yield* catalog.markAnalysed(workspace.id, [{ id: item.id, cost: 650 }])
        const analysed = yield* expectSome(yield* catalog.get(workspace.id, item.id), "the item")
        assert.strictEqual(analysed.analysedCost, 650)
      })
    )

    it.effect("list pages newest first, filters by tag, stays in its workspace", () =>
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const items: Array<CatalogItem> = []
        for (let n = 0; n < 6; n++) {
          const tags = n % 2 === 0 ? ["even"] : ["odd"]
          // Pairs share an instant, so the id has to order them.
          items.push(yield* seedItem(workspace.id, { sku: `L-${n}`, tags }, fixtureNow + Math.floor(n / 2) * minuteMs))
        }
        yield* seedItem(other.id, { sku: "L-0", tags: ["even"] })
        yield* assertPaging((page) => catalog.list(workspace.id, { tag: null }, page), createdAtKey, items, 4)
        yield* assertPaging(
          (page) => catalog.list(workspace.id, { tag: "even" }, page),
          createdAtKey,
          items.filter((item) => item.tags.includes("even")),
          2
        )
      })
    )

    it.effect("list finds a part of the SKU, case-insensitively, with %, _ and \\ taken literally", () =>
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        for (const sku of ["Red-Shoe-1", "red-shoe-2", "BLUE-HAT", "50%_OFF", "A\\B"])
          yield* seedItem(workspace.id, { sku })
        yield* seedItem(other.id, { sku: "red-shoe-9" })
        const skus = (sku: string | null) =>
          catalog
            .list(workspace.id, { tag: null, sku }, { limit: 50, cursor: null })
            .pipe(Effect.map((page) => page.items.map((item) => item.sku).sort()))
        assert.deepStrictEqual(yield* skus("RED-shoe"), ["Red-Shoe-1", "red-shoe-2"])
        assert.deepStrictEqual(yield* skus("hat"), ["BLUE-HAT"])
        assert.deepStrictEqual(yield* skus("%"), ["50%_OFF"])
        assert.deepStrictEqual(yield* skus("_"), ["50%_OFF"])
        assert.deepStrictEqual(yield* skus("\\"), ["A\\B"])
        assert.deepStrictEqual(yield* skus("nothing"), [])
        assert.strictEqual((yield* skus(null)).length, 5)
        assert.strictEqual((yield* skus("")).length, 5)
      })
    )

    it.effect("streamForRun yields the items in scope in chunks ordered by id", () =>
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const tagsOf = [["a"], ["b"], ["a", "b"], [], ["c"], ["a"], ["b"]]
        const items: Array<CatalogItem> = []
        for (const [n, tags] of tagsOf.entries()) items.push(yield* seedItem(workspace.id, { sku: `S-${n}`, tags }))
        yield* seedItem(other.id, { sku: "S-x", tags: ["a"] })

        const chunks = yield* Stream.runCollect(catalog.streamForRun(workspace.id, [], 3))
        assert.deepStrictEqual(
          chunks.map((chunk) => chunk.length),
          [3, 3, 1]
        )
        assert.deepStrictEqual(
          chunks.flat().map((item) => item.id),
          items.map((item) => item.id).sort() // code-unit order, as `COLLATE "C"`
        )
        const tagged = (yield* Stream.runCollect(catalog.streamForRun(workspace.id, ["a", "c"], 2))).flat()
        assert.deepStrictEqual(
          skus(tagged),
          skus(items.filter((item) => item.tags.some((tag) => tag === "a" || tag === "c")))
        )
        assert.strictEqual(yield* catalog.countForRun(workspace.id, []), 7)
        assert.strictEqual(yield* catalog.countForRun(workspace.id, ["a", "c"]), 4)
        assert.strictEqual(yield* catalog.countForRun(workspace.id, ["missing"]), 0)
        assert.deepStrictEqual(yield* Stream.runCollect(catalog.streamForRun(workspace.id, ["missing"], 2)), [])
      })
    )

    it.effect("streamRunItems yields the same items as streamForRun, with what the engine reads", () =>
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        yield* seedItem(workspace.id, { sku: "R-0", tags: ["a"], cost: null, minPrice: 900, maxPrice: 2000 })
        yield* seedItem(workspace.id, { sku: "R-1", tags: ["b"], unitsSold30d: 0 })
        yield* seedItem(workspace.id, { sku: "R-2", tags: ["a", "b"], price: 1000, unitsSold30d: 12 })
        // A price change gives R-2 a price history; a cost change leaves its snapshot behind.
        yield* seedItem(workspace.id, { sku: "R-2", tags: ["a", "b"], price: 1250, cost: 800 })
        yield* seedItem(other.id, { sku: "R-x", tags: ["a"] })
        const asRunItem = (item: RunItem) => ({
          id: item.id,
          sku: item.sku,
          currency: item.currency,
          price: item.price,
          cost: item.cost,
          minPrice: item.minPrice,
          maxPrice: item.maxPrice,
          unitsSold30d: item.unitsSold30d,
          analysedCost: item.analysedCost,
          priceHistory: item.priceHistory,
          tags: item.tags,
          competitorPrice: item.competitorPrice
        })
        for (const tags of [[], ["a"], ["b", "missing"], ["missing"]]) {
          const chunks = yield* Stream.runCollect(catalog.streamRunItems(workspace.id, tags, 2))
          const whole = (yield* Stream.runCollect(catalog.streamForRun(workspace.id, tags, 2))).flat()
          assert.isTrue(
            chunks.every((chunk) => chunk.length > 0 && chunk.length <= 2),
            "non-empty chunks of at most chunkSize"
          )
          assert.deepStrictEqual(chunks.flat().map(asRunItem), whole.map(asRunItem))
        }
        const r2 = yield* itemBySku(workspace.id, "R-2")
        assert.deepStrictEqual([r2.cost, r2.analysedCost, r2.priceHistory], [800, 700, [{ price: 1000, units: 12 }]])
      })
    )

    it.effect("a batch without competitor prices keeps the items'; a batch with them sets or clears them", () =>
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const workspace = yield* seedWorkspace()
        const competitor = (sku: string) => Effect.map(itemBySku(workspace.id, sku), (item) => item.competitorPrice)
        yield* catalog.upsertMany(
          workspace.id,
          [aCatalogItemInput({ sku: "C-1", competitorPrice: 950 }), aCatalogItemInput({ sku: "C-2" })],
          fixtureNow
        )
        assert.deepStrictEqual([yield* competitor("C-1"), yield* competitor("C-2")], [950, null])
        yield* catalog.upsertMany(workspace.id, [aCatalogItemInput({ sku: "C-1", title: "Kept" })], fixtureNow)
        assert.strictEqual(yield* competitor("C-1"), 950)
        yield* catalog.upsertMany(
          workspace.id,
          [aCatalogItemInput({ sku: "C-1" }), aCatalogItemInput({ sku: "C-2", competitorPrice: 990 })],
          fixtureNow
        )
        assert.deepStrictEqual([yield* competitor("C-1"), yield* competitor("C-2")], [null, 990])
      })
    )

    it.effect("streamElasticityEvidence yields the workspace's items with a price history only, by id", () =>
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        for (const sku of ["E-1", "E-2", "E-3", "E-4"]) yield* seedItem(workspace.id, { sku, tags: ["t"], price: 1000 })
        for (const sku of ["E-1", "E-3", "E-4"])
          yield* seedItem(workspace.id, { sku, tags: ["t"], price: 1100, unitsSold30d: 20 })
        yield* seedItem(other.id, { sku: "E-x", price: 1000 })
        yield* seedItem(other.id, { sku: "E-x", price: 1200 })
        const chunks = yield* Stream.runCollect(catalog.streamElasticityEvidence(workspace.id, 2))
        assert.isTrue(
          chunks.every((chunk) => chunk.length > 0 && chunk.length <= 2),
          "non-empty chunks of at most chunkSize"
        )
        assert.strictEqual(chunks.flat().length, 3)
        for (const item of chunks.flat()) {
          assert.deepStrictEqual(
            [item.tags, item.price, item.unitsSold30d, item.priceHistory],
            [["t"], 1100, 20, [{ price: 1000, units: 30 }]]
          )
        }
      })
    )

    it.effect("setPrice remembers since when the price is in force and the price a write-back replaced", () =>
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const workspace = yield* seedWorkspace()
        const item = yield* seedItem(workspace.id, { sku: "W", price: 1000 })
        assert.deepStrictEqual([item.priceSetAt, item.writtenBackFrom], [fixtureNow, null])
        yield* catalog.setPrice(workspace.id, item.id, 1200, fixtureNow + minuteMs)
        const applied = yield* itemBySku(workspace.id, "W")
        assert.deepStrictEqual([applied.priceSetAt, applied.writtenBackFrom], [fixtureNow + minuteMs, 1000])
        // An already applied price (a repeated delivery) changes nothing of it.
        yield* catalog.setPrice(workspace.id, item.id, 1200, fixtureNow + 2 * minuteMs)
        const repeated = yield* itemBySku(workspace.id, "W")
        assert.deepStrictEqual(
          [repeated.priceSetAt, repeated.writtenBackFrom, repeated.priceHistory],
          [fixtureNow + minuteMs, 1000, applied.priceHistory]
        )
        // A seeding upsert that moves the price makes it nobody's write-back.
        yield* catalog.upsertMany(
          workspace.id,
          [aCatalogItemInput({ sku: "W", price: 1300 })],
          fixtureNow + 3 * minuteMs
        )
        const reseeded = yield* itemBySku(workspace.id, "W")
        assert.deepStrictEqual([reseeded.priceSetAt, reseeded.writtenBackFrom], [fixtureNow + 3 * minuteMs, null])
      })
    )

    it.effect("applyImport decides each line against the item as the lines before left it, in order", () =>
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const kept = yield* seedItem(workspace.id, { sku: "K", price: 500 })
        const foreign = yield* seedItem(other.id, { sku: "N", price: 700 })
        const seen: Array<readonly [string, number | null]> = []
        const decisions = yield* catalog.applyImport(
          workspace.id,
          [
            { line: 2, patch: { sku: "N", title: "x" } },
            { line: 3, patch: { sku: "N", title: "y" } },
            { line: 4, patch: { sku: "K", title: "z" } },
            { line: 5, patch: { sku: "K", title: "z" } }
          ],
          (current, patch) => {
            seen.push([patch.sku, current === undefined ? null : current.price])
            if (current === undefined) {
              return {
                _tag: "Created",
                item: { ...kept, workspaceId: workspace.id, sku: patch.sku, title: patch.title ?? "", price: 900 }
              }
            }
            if (patch.sku === "K" && current.title !== "z") {
              return {
                _tag: "Updated",
                item: {
                  ...current,
                  title: "z",
                  priceHistory: [{ price: 1, units: 2 }],
                  priceSetAt: 5,
                  writtenBackFrom: 4
                },
                priceChanged: false,
                costChanged: false,
                otherChanged: true,
                stalePrice: false
              }
            }
            return { _tag: "Unchanged", stalePrice: false }
          }
        )
        assert.deepStrictEqual(
          decisions.map((decision) => decision._tag),
          ["Created", "Unchanged", "Updated", "Unchanged"]
        )
        // The second line of N saw the item the first created; the second of K the first's update.
        assert.deepStrictEqual(seen, [
          ["N", null],
          ["N", 900],
          ["K", 500],
          ["K", 500]
        ])
        const created = yield* itemBySku(workspace.id, "N")
        assert.notStrictEqual(created.id, foreign.id)
        assert.deepStrictEqual([created.title, created.price, created.workspaceId], ["x", 900, workspace.id])
        const updated = yield* itemBySku(workspace.id, "K")
        assert.deepStrictEqual(updated, {
          ...kept,
          title: "z",
          priceHistory: [{ price: 1, units: 2 }],
          priceSetAt: 5,
          writtenBackFrom: 4
        })
        assert.deepStrictEqual(yield* itemBySku(other.id, "N"), foreign, "another workspace's sku is not touched")
      })
    )

    it.effect("applyImport writes every field of a decided item as it is", () =>
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const workspace = yield* seedWorkspace()
        const item = yield* seedItem(workspace.id, { sku: "F", price: 1000 })
        const full: CatalogItem = {
          ...item,
          title: 'Full, "quoted"',
          tags: ["a", "b-c"],
          price: 1234,
          cost: null,
          compareAtPrice: 2000,
          minPrice: 1,
          maxPrice: 99_999,
          inventory: -3,
          unitsSold30d: 17,
          storeProductRef: null,
          storeVariantRef: "gid://shopify/ProductVariant/9",
          analysedCost: 11,
          priceHistory: [
            { price: 900, units: 3 },
            { price: 1000, units: 0 }
          ],
          competitorPrice: 1200,
          priceSetAt: fixtureNow - 1,
          writtenBackFrom: null,
          updatedAt: fixtureNow + 7
        }
        yield* catalog.applyImport(workspace.id, [{ line: 2, patch: { sku: "F" } }], () => ({
          _tag: "Updated",
          item: full,
          priceChanged: true,
          costChanged: true,
          otherChanged: true,
          stalePrice: false
        }))
        assert.deepStrictEqual(yield* itemBySku(workspace.id, "F"), full)
      })
    )
  })
