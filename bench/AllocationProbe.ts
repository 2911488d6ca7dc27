// Loaded into a benched server with `--import` (BENCH_ALLOCATION=1 of bench/http.ts): on SIGUSR2 it
// appends one JSON line to <BENCH_PROBE_DIR>/<pid>.jsonl with the bytes the process allocated on
// its JS heap so far, the time its garbage collections took so far (the main thread's pauses; V8's
// helper threads scavenge alongside), and the bytes its scavenges promoted to the old generation
// (what outlived a scavenge interval, and is later a major GC's work). Allocation and promotion per
// request are steady from run to run where CPU time on a busy machine is not, so they can tell two
// versions apart.
import { appendFileSync } from "node:fs"
import { join } from "node:path"
import { GCProfiler, getHeapStatistics } from "node:v8"

const directory = process.env.BENCH_PROBE_DIR

/** The old generation's bytes in use, as one side of a GCProfiler statistic reports them. */
const oldSpaceUsed = (side: {
  readonly heapSpaceStatistics: ReadonlyArray<{ readonly spaceName: string; readonly spaceUsedSize: number }>
}): number => side.heapSpaceStatistics.find((space) => space.spaceName === "old_space")?.spaceUsedSize ?? 0
if (directory !== undefined) {
  let profiler = new GCProfiler()
  profiler.start()
  // What the collections freed (before minus after, each) plus what is in use now: all allocated.
  let freedBytes = 0
  let gcMicros = 0
  let promotedBytes = 0
  process.on("SIGUSR2", () => {
    const { statistics } = profiler.stop() ?? { statistics: [] }
    profiler = new GCProfiler()
    profiler.start()
    for (const gc of statistics) {
      freedBytes += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize
      gcMicros += gc.cost
      if (gc.gcType === "Scavenge") promotedBytes += oldSpaceUsed(gc.afterGC) - oldSpaceUsed(gc.beforeGC)
    }
    const allocatedBytes = freedBytes + getHeapStatistics().used_heap_size
    appendFileSync(
      join(directory, `${process.pid}.jsonl`),
      `${JSON.stringify({ allocatedBytes, gcMs: gcMicros / 1000, promotedBytes })}\n`
    )
  })
}
