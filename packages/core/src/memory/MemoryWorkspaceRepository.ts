import { Effect, HashMap, Layer, Option } from "effect"
import type { Workspace } from "../workspaces/Workspace.ts"
import { WorkspaceRepository } from "../workspaces/WorkspaceRepository.ts"
import { byCreatedAt, pageBy } from "./internal/MemoryPaging.ts"
import { changeRow, getRow, insertNew, oldestFirst, rowsWhere } from "./internal/MemoryRows.ts"
import { workspacesTable } from "./internal/MemoryTables.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

export const layer: Layer.Layer<WorkspaceRepository, never, MemoryDatabase> = Layer.effect(
  WorkspaceRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDatabase
    const set = (id: string, change: Partial<Workspace>) =>
      changeRow(db, workspacesTable, id, (workspace) => Option.some({ ...workspace, ...change }))
    return WorkspaceRepository.of({
      get: (id) => getRow(db, workspacesTable, id),
      insert: (workspace) => insertNew(db, workspacesTable, workspace.id, workspace, "WorkspaceRepository.insert"),
      setPlan: (id, plan) => set(id, { plan }),
      setLifecycleState: (id, lifecycleState) => set(id, { lifecycleState }),
      setPricingPolicy: (id, pricingPolicy) => set(id, { pricingPolicy }),
      // Every memory transaction already runs alone under the database's lock.
      lockUsage: () => Effect.void,
      // Names are not unique: the oldest workspace of that name is the one seeding created first.
      findByName: (name) =>
        db.read((tables) =>
          Option.fromUndefinedOr(
            rowsWhere(tables.workspaces, (workspace) => workspace.name === name).sort(oldestFirst)[0]
          )
        ),
      list: (page) => db.read((tables) => pageBy(HashMap.values(tables.workspaces), byCreatedAt, page))
    })
  })
)
