import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { CatalogImportRecord } from "../catalog/CatalogImportRecord.ts"
import { CatalogImportRepository } from "../catalog/CatalogImportRepository.ts"
import type { IdGenerator } from "../kernel/IdGenerator.ts"
import { CatalogImportId } from "../kernel/Ids.ts"
import type { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { fixtureNow } from "./Fixtures.ts"
import { freshId, seedWorkspace } from "./Seed.ts"

export type CatalogImportContractServices = CatalogImportRepository | WorkspaceRepository | IdGenerator

/** The CatalogImportRepository port's contract: every adapter must pass it. */
export const catalogImportRepositoryContract = <E>(
  name: string,
  services: Layer.Layer<CatalogImportContractServices, E>
) =>
  layer(services)(`CatalogImportRepository contract (${name})`, (it) => {
    it.effect("stores an import as it is and reads it back in its own workspace only", () =>
      Effect.gen(function* () {
        const repository = yield* CatalogImportRepository
        const workspace = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const record: CatalogImportRecord = {
          id: yield* freshId("catalogImport", CatalogImportId.make),
          workspaceId: workspace.id,
          status: "succeeded",
          format: "jsonl",
          dryRun: true,
          summary: {
            created: 1,
            updated: 2,
            priceChanged: 1,
            costChanged: 1,
            otherChanged: 2,
            unchanged: 3,
            stalePrice: 1,
            rejected: [{ line: 7, error: 'price: "x" is not an amount, "quoted"' }],
            rejectedTotal: 1
          },
          requestedBy: "token:tok_1",
          createdAt: fixtureNow,
          finishedAt: fixtureNow + 1234
        }
        yield* repository.insert(record)
        assert.deepStrictEqual(yield* repository.get(workspace.id, record.id), Option.some(record))
        assert.isTrue(Option.isNone(yield* repository.get(other.id, record.id)))
        assert.isTrue(Option.isNone(yield* repository.get(workspace.id, CatalogImportId.make("imp_none"))))
      })
    )
  })
