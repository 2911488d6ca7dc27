import { BackgroundRuns } from "@margin/core/runs/BackgroundRuns"
import { Layer } from "effect"
import { RunWorker } from "./RunWorker.ts"

/**
 * The BackgroundRuns port on this process's run worker (which the layer brings along): a run just
 * queued wakes it, so it claims now rather than at its next poll. RunWorker.layer is the value
 * Jobs.layer uses too: one run worker where both are in one layer graph (see Jobs.ts).
 */
export const layer = Layer.effect(
  BackgroundRuns,
  RunWorker.useSync((worker) => BackgroundRuns.of({ start: () => worker.wake }))
).pipe(Layer.provide(RunWorker.layer))
