import { setFlagsFromString } from "node:v8"

/**
 * The V8 flags `tuneV8ForServing` sets, each read by V8 as it goes, so that setting them once the
 * process runs takes effect (V8Tuning.test.ts checks both on the Node version the repository pins).
 *
 * `--no-allocation-site-pretenuring`: V8 watches, for each place that allocates object literals,
 * how much survives a young collection; when nearly everything does, it allocates that place's
 * objects in the old generation from then on. In a server, a collection that happens to land while
 * a burst of requests is in flight sees their rows, objects and response bodies all alive and sends
 * those allocation places to the old generation, where every later request's copies wait for a full
 * collection. Which places, and whether at all, varies from run to run: in bench:http one server in
 * three (ours or the bare baseline alike) ran in that state, promoting 40-150 KB per list request
 * instead of under 1 KB, at twice the GC time (docs/performance-log.md, session 8). Off, short-lived
 * request objects stay in the young generation, where collecting them costs nothing.
 *
 * `--invocation-count-for-turbofan=300` (V8's default is 3000): how long a function runs in
 * Maglev, V8's quick optimizing tier, before TurboFan compiles it fully. V8's default suits a page
 * that lives for minutes; in a server, code that runs once per request (the request's own layers)
 * reached TurboFan only after about 10,000 requests, in one burst of some 150 compilations, so a
 * process served its first minutes (or its first hours at a low rate) in the slower tier. At a
 * tenth, that code is in TurboFan after 700-1,600 requests (bench:http, docs/performance-log.md,
 * session 14).
 */
export const servingV8Flags: ReadonlyArray<string> = [
  "--no-allocation-site-pretenuring",
  "--invocation-count-for-turbofan=300"
]

/** Sets `servingV8Flags`. Call it first thing in a serving process's main, before it takes requests. */
export const tuneV8ForServing = (): void => {
  for (const flag of servingV8Flags) setFlagsFromString(flag)
}
