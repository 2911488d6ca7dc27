import { setFlagsFromString } from "node:v8"

/**
 * The V8 flags `tuneV8ForServing` sets. V8 reads each as it goes, so setting them once the process
 * runs takes effect (V8Tuning.test.ts checks both on the Node version the repository pins). Why, with
 * the figures: docs/operations.md, "The V8 settings the processes apply themselves".
 *
 * `--no-allocation-site-pretenuring`: a young collection that lands on a burst of requests in
 * flight would otherwise teach V8 to allocate those requests' objects in the old generation from then
 * on, at twice the GC time per request.
 *
 * `--invocation-count-for-turbofan=300` (V8's default 3000): code a request runs once otherwise stays
 * in Maglev, the quicker-to-compile and slower tier, for a process's first ~10,000 requests.
 */
const servingV8Flags: ReadonlyArray<string> = [
  "--no-allocation-site-pretenuring",
  "--invocation-count-for-turbofan=300"
]

/** Sets `servingV8Flags`. Call it first thing in a serving process's main, before it takes requests. */
export const tuneV8ForServing = (): void => {
  for (const flag of servingV8Flags) setFlagsFromString(flag)
}
