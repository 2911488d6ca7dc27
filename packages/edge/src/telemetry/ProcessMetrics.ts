import { Effect, Metric } from "effect"
import * as ServiceMetrics from "./ServiceMetrics.ts"

// CPU time already counted: the counter grows by what was spent since the last scrape.
let countedCpuMicros = 0

/** Reads the process's CPU time, memory and start time into its metrics: at scrape, never per request. */
export const refreshProcessMetrics: Effect.Effect<void> = Effect.suspend(() => {
  const usage = process.cpuUsage()
  const cpuMicros = usage.user + usage.system
  const spent = cpuMicros - countedCpuMicros
  countedCpuMicros = Math.max(cpuMicros, countedCpuMicros)
  const memory = process.memoryUsage()
  return Effect.all(
    [
      Metric.update(ServiceMetrics.processCpuSeconds, Math.max(spent, 0) / 1e6),
      Metric.update(ServiceMetrics.processResidentMemory, memory.rss),
      Metric.update(ServiceMetrics.processHeapUsed, memory.heapUsed),
      Metric.update(ServiceMetrics.processStartTime, Math.floor(performance.timeOrigin / 1000))
    ],
    { discard: true }
  )
})
