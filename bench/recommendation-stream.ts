// Streams a workspace's recommendations through RecommendationRepository.stream (the report
// export's read) and prints rows/second and the process's memory before and at its peak: the
// stream reads one query through the driver's cursor, so memory stays flat whatever the count.
// Usage: DATABASE_URL=postgres://… node bench/recommendation-stream.ts [rows]   (default 500,000)
// Add --max-old-space-size=64 (before the script) to see it run in a 64 MB heap.
// Seeds a fresh database (TestDatabase: created on that server and dropped afterwards; without
// DATABASE_URL a throwaway embedded database, much slower) with that many recommendations.
import { NodeRuntime } from "@effect/platform-node"
import { WorkspaceId } from "@margin/core/kernel/Ids"
import { RecommendationRepository } from "@margin/core/recommendations/RecommendationRepository"
import { PgAdapters } from "@margin/postgres"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { Effect, Layer, Stream } from "effect"
import { SqlClient } from "effect/sql"

const count = Number(process.argv[2] ?? 500_000)
if (!Number.isSafeInteger(count) || count <= 0) {
  console.error(`usage: node bench/recommendation-stream.ts [rows], got "${process.argv[2]}"`)
  process.exit(2)
}

const workspaceId = WorkspaceId.make("ws_stream_bench")
const megabytes = (bytes: number) => `${Math.round(bytes / 1e6)} MB`

/** One workspace, one run, `count` items and a recommendation for each, written by the server itself. */
const seed = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    INSERT INTO workspaces (id, name, plan, lifecycle_state, target_margin, min_margin, max_change_pct, rounding, threshold)
    VALUES (${workspaceId}, 'stream bench', 'max', 'active', 0.35, 0.15, 0.1, '99', 0.01)`
  yield* sql`INSERT INTO runs (id, workspace_id, status, trigger) VALUES ('run_stream_bench', ${workspaceId}, 'succeeded', 'cli')`
  yield* sql`
    INSERT INTO catalog_items (id, workspace_id, sku, title, currency, price, cost)
    SELECT 'itm_' || lpad(n::text, 9, '0'), ${workspaceId}, 'SKU-' || n, 'Item ' || n, 'USD', 1000, 700
    FROM generate_series(1, ${count}) AS n`
  yield* sql`
    INSERT INTO recommendations (
      id, workspace_id, run_id, item_id, sku, currency, current_price, recommended_price, current_margin,
      projected_margin, rule, explanation, elasticity, elasticity_source, elasticity_sample_size,
      expected_monthly_impact, status, version, created_at, updated_at)
    SELECT 'rec_' || lpad(n::text, 9, '0'), ${workspaceId}, 'run_stream_bench', 'itm_' || lpad(n::text, 9, '0'),
      'SKU-' || n, 'USD', 1000, 1099, 0.3, 0.3631, 'below_target_margin',
      'The margin of 30.0 % is below the target of 35.0 %: 10.00 USD -> 10.99 USD.', 0, 'assumed_zero', 0,
      2970, 'new', 1, timestamptz '2025-01-15 12:00:00+00' - n * interval '1 second', now()
    FROM generate_series(1, ${count}) AS n`
})

const program = Effect.gen(function* () {
  const seeding = performance.now()
  yield* seed
  console.log(`seeded ${count} recommendations in ${((performance.now() - seeding) / 1000).toFixed(1)} s`)
  const recommendations = yield* RecommendationRepository
  const before = process.memoryUsage()
  let peak = { rss: before.rss, heapUsed: before.heapUsed }
  let streamed = 0
  const start = performance.now()
  yield* Stream.runForEachArray(recommendations.stream(workspaceId), (chunk) =>
    Effect.sync(() => {
      streamed += chunk.length
      const now = process.memoryUsage()
      peak = { rss: Math.max(peak.rss, now.rss), heapUsed: Math.max(peak.heapUsed, now.heapUsed) }
    })
  )
  const seconds = (performance.now() - start) / 1000
  console.log(
    `streamed ${streamed} rows in ${seconds.toFixed(1)} s (${Math.round(streamed / seconds)} rows/s); ` +
      `heap ${megabytes(before.heapUsed)} before, ${megabytes(peak.heapUsed)} at the peak; ` +
      `rss ${megabytes(before.rss)} before, ${megabytes(peak.rss)} at the peak`
  )
})

const services = PgAdapters.layer.pipe(Layer.provideMerge(TestDatabase.layer), Layer.orDie)
program.pipe(Effect.provide(services), NodeRuntime.runMain)
