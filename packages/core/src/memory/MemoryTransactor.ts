import { Layer } from "effect"
import { Transactor } from "../kernel/Transactor.ts"
import { MemoryDatabase } from "./MemoryDatabase.ts"

/** Transactions of the shared MemoryDatabase: serialized, all-or-nothing, nested calls join. */
export const layer: Layer.Layer<Transactor, never, MemoryDatabase> = Layer.effect(
  Transactor,
  MemoryDatabase.useSync((db) => Transactor.of({ transaction: db.transaction }))
)
