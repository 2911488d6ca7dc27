import { setFlagsFromString } from "node:v8"

/** The V8 flag `tuneHeapForServing` sets. */
const servingHeapFlag = "--no-allocation-site-pretenuring"

/**
 * Turns off V8's allocation-site pretenuring for the rest of the process. Call it first thing in
 * a serving process's main, before it takes requests.
 *
 * Why: V8 watches, for each place that allocates object literals, how much survives a young
 * collection; when nearly everything does, it allocates that place's objects in the old
 * generation from then on. In a server, a collection that happens to land while a burst of
 * requests is in flight sees their rows, objects and response bodies all alive and sends those
 * allocation places to the old generation, where every later request's copies wait for a full
 * collection. Which places, and whether at all, varies from run to run: in bench:http one server
 * in three (ours or the bare baseline alike) ran in that state, promoting 40-150 KB per list
 * request instead of under 1 KB, at twice the GC time (docs/performance-log.md, session 8). Off, short-lived
 * request objects stay in the young generation, where collecting them costs nothing.
 *
 * The flag is read at each collection, so setting it once the process runs takes effect
 * (HeapTuning.test.ts checks that on the Node version the repository pins).
 */
export const tuneHeapForServing = (): void => {
  setFlagsFromString(servingHeapFlag)
}
