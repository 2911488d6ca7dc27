// Loaded into a benched server with `--import` (BENCH_ALLOCATION=1 of bench/http.ts): on SIGUSR2 it
// appends one JSON line to <BENCH_PROBE_DIR>/<pid>.jsonl with the bytes the process allocated on
// its JS heap so far and the time its garbage collections took so far. Allocation per request is
// steady from run to run where CPU time on a busy machine is not, so it can tell two versions apart.
import { appendFileSync } from "node:fs"
import { join } from "node:path"
import { GCProfiler, getHeapStatistics } from "node:v8"

const directory = process.env.BENCH_PROBE_DIR
if (directory !== undefined) {
  let profiler = new GCProfiler()
  profiler.start()
  // What the collections freed (before minus after, each) plus what is in use now: all allocated.
  let freedBytes = 0
  let gcMicros = 0
  process.on("SIGUSR2", () => {
    const { statistics } = profiler.stop() ?? { statistics: [] }
    profiler = new GCProfiler()
    profiler.start()
    for (const gc of statistics) {
      freedBytes += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize
      gcMicros += gc.cost
    }
    const allocatedBytes = freedBytes + getHeapStatistics().used_heap_size
    appendFileSync(
      join(directory, `${process.pid}.jsonl`),
      `${JSON.stringify({ allocatedBytes, gcMs: gcMicros / 1000 })}\n`
    )
  })
}
