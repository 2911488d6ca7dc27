import { Layer } from "effect"
import { StoreWriteBack } from "../writeback/StoreWriteBack.ts"
import { MemoryStore } from "./MemoryStore.ts"

/** The StoreWriteBack port over the fake MemoryStore. */
export const layer: Layer.Layer<StoreWriteBack, never, MemoryStore> = Layer.effect(
  StoreWriteBack,
  MemoryStore.useSync((store) => StoreWriteBack.of({ deliver: store.deliver }))
)
