/**
 * Load on a running REST server: `node bench/rest.ts <base-url> <token> [seconds] [concurrency]`.
 * Prints requests per second and latency percentiles for a few representative operations.
 * Start the server with a RATE_LIMIT_PER_MINUTE high enough not to limit the run.
 */
const [base = "http://127.0.0.1:8787", token = "", secondsText = "10", concurrencyText = "32"] = process.argv.slice(2)
const seconds = Number(secondsText)
const concurrency = Number(concurrencyText)

const targets = [
  { name: "GET /healthz (no auth)", path: "/healthz" },
  { name: "GET /api/v1/workspace/status", path: "/api/v1/workspace/status" },
  { name: "GET /api/v1/recommendations?limit=50", path: "/api/v1/recommendations?limit=50" },
  { name: "GET /api/v1/runs/run_missing (404)", path: "/api/v1/runs/run_missing" }
]

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN

for (const target of targets) {
  const latencies: Array<number> = []
  const statuses = new Map<number, number>()
  const deadline = performance.now() + seconds * 1000
  const worker = async () => {
    while (performance.now() < deadline) {
      const started = performance.now()
      const response = await fetch(`${base}${target.path}`, { headers: { authorization: `Bearer ${token}` } })
      await response.arrayBuffer()
      latencies.push(performance.now() - started)
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  latencies.sort((a, b) => a - b)
  console.log(
    `${target.name}: ${Math.round(latencies.length / seconds)} req/s, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, statuses ${JSON.stringify(Object.fromEntries(statuses))}`
  )
}
