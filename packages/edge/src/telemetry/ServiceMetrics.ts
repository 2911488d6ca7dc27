import { Metric } from "effect"

/**
 * Every metric the service exports at GET /metrics (Prometheus text), in one place so that the
 * names are documented once (docs/operations.md). Counters only grow: rates (requests per
 * second, items per second) are `rate()` in Prometheus. Labels are bounded: a route is its
 * template, never the raw path.
 */

/** Seconds, for request latency: 5 ms to 10 s. */
const latencyBoundaries = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export const httpRequests = Metric.counter("margin_http_requests_total", {
  description: "HTTP requests answered, by method, route template and status",
  incremental: true
})

export const httpErrors = Metric.counter("margin_http_request_errors_total", {
  description: "HTTP requests answered with a status of 400 or more, by method, route template and status",
  incremental: true
})

export const httpLatency = Metric.histogram("margin_http_request_duration_seconds", {
  description: "Time from a request's arrival to its answer, by method and route template",
  boundaries: latencyBoundaries
})

export const rateLimited = Metric.counter("margin_rate_limited_requests_total", {
  description: "Requests refused with 429 rate_limited, by route template",
  incremental: true
})

export const rateBudgetFallbacks = Metric.counter("margin_rate_budget_fallback_total", {
  description:
    "Budget checks answered by this process's own memory budget while the shared store (Redis or PostgreSQL) could not count",
  incremental: true
})

export const rateBudgetDegraded = Metric.gauge("margin_rate_budget_degraded", {
  description: "1 while this process counts rate budgets in memory because the shared store is down, else 0"
})

export const runTransitions = Metric.counter("margin_runs_total", {
  description: "Runs entering a status (queued, running, completed, failed...), by status",
  incremental: true
})

export const runItemsAnalysed = Metric.counter("margin_run_items_analysed_total", {
  description: "Catalog items analysed by runs in this process; rate() of it is items per second",
  incremental: true
})

export const writeBackOutcomes = Metric.counter("margin_write_backs_total", {
  description: "Write-back delivery outcomes in this process: applied, retry_scheduled, failed",
  incremental: true
})

export const writeBackAttempts = Metric.counter("margin_write_back_attempts_total", {
  description: "Write-back delivery attempts started (rows claimed) in this process",
  incremental: true
})

export const writeBackAttemptsToSettle = Metric.histogram("margin_write_back_attempts_to_settle", {
  description: "Attempts a write-back took until it was applied or failed, by outcome",
  boundaries: [1, 2, 3, 4, 5, 6, 8, 10]
})

export const outboxDepth = Metric.gauge("margin_write_back_outbox_depth", {
  description: "Write-backs not yet applied or failed (the whole outbox, read when scraped)"
})

export const outboxOldestAge = Metric.gauge("margin_write_back_outbox_oldest_age_seconds", {
  description: "Age of the oldest write-back not yet applied or failed, 0 when the outbox is empty (read when scraped)"
})

/** The process's own figures, read when scraped (ProcessMetrics), under the names Prometheus clients use. */
export const processCpuSeconds = Metric.counter("process_cpu_seconds_total", {
  description: "User and system CPU time of this process, in seconds",
  incremental: true
})

export const processResidentMemory = Metric.gauge("process_resident_memory_bytes", {
  description: "Resident memory of this process, in bytes"
})

export const processHeapUsed = Metric.gauge("nodejs_heap_size_used_bytes", {
  description: "V8 heap in use, in bytes"
})

export const processStartTime = Metric.gauge("process_start_time_seconds", {
  description: "When this process started, in seconds since the Unix epoch"
})
