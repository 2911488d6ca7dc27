import { assert, layer } from "@effect/vitest"
import { Alerts } from "@margin/core/alerts/Alerts"
import { Recommendations } from "@margin/core/recommendations/Recommendations"
import { seedRun } from "@margin/core/testing/Seed"
import { PgAdapters } from "@margin/postgres"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import {
  approveWithoutDelivery,
  seedApprovalWorkspace,
  seedPendingRecommendations,
  writeBackOf
} from "@margin/runtime/testing/ApprovalWorld"
import { requestOver } from "@margin/runtime/testing/ApproveRequest"
import { type Child, freePort, startRestServer, startWorker } from "@margin/runtime/testing/ChildProcesses"
import { ancestorsOf, type CollectedSpan, type Collector, startCollector } from "@margin/runtime/testing/FakeCollector"
import { Duration, Effect, Layer } from "effect"

/**
 * Tracing and metrics of the real processes (docs/operations.md): a REST server and a worker,
 * started as in production with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a fake collector, on the
 * test's database (on the embedded test server, or PostgreSQL).
 */

/** The environment that puts a child process on the test's database. */
const databaseEnvironment = TestDatabase.useSync((database) => ({ DATABASE_URL: database.url }))

/** Export as JSON (readable by the fake collector), every 100 ms. */
const tracingTo = (collector: Pick<Collector, "url">) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
  OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
  OTEL_BSP_SCHEDULE_DELAY: "100"
})

/** Keeps the background loops out of the REST process: its spans are the request's. */
const noLoops = { RUN_WORKER_CONCURRENCY: "0", OUTBOX_CONCURRENCY: "0" }

/** Waits (within a deadline that only fails the test) until the collected spans hold what `found` looks for. */
const spansWhere = <A>(
  child: Child,
  collector: Collector,
  what: string,
  found: (spans: ReadonlyArray<CollectedSpan>) => A | undefined
): Effect.Effect<A> =>
  Effect.gen(function* () {
    yield* child.waitUntil(
      Effect.map(collector.spans, (spans) => found(spans) !== undefined),
      what,
      Duration.seconds(60)
    )
    const result = found(yield* collector.spans)
    return result === undefined ? yield* Effect.die(`${what} disappeared`) : result
  })

const attribute = (span: CollectedSpan, key: string) => span.attributes[key]

/** The value of the sample `name{labels}` in a Prometheus text, undefined when absent. */
const sample = (text: string, name: string, labels = ""): number | undefined => {
  const line = text.split("\n").find((each) => each.startsWith(`${name}${labels} `))
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1))
}

/** GET `url`; status 0 while nothing listens (the worker opens its metrics port after its loops start). */
const get = (url: string, token?: string) =>
  Effect.promise(() =>
    fetch(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }).then(
      async (response) => ({ status: response.status, text: await response.text() }),
      () => ({ status: 0, text: "" })
    )
  )

const World = Layer.mergeAll(Recommendations.layer, Alerts.layer).pipe(
  Layer.provideMerge(PgAdapters.layer),
  Layer.provideMerge(TestDatabase.layer)
)

const processTimeout = { timeout: 240_000 }

layer(World, { timeout: "3 minutes", excludeTestServices: true })("tracing and metrics of the processes", (it) => {
  it.effect(
    "REST: an approve is one trace: the server span (request_id), the use case, its SQL statements and the delivery",
    () =>
      Effect.gen(function* () {
        const collector = yield* startCollector
        const { workspaceId, token } = yield* seedApprovalWorkspace()
        const [recommendation] = yield* seedPendingRecommendations(workspaceId, 1)
        assert.isDefined(recommendation)
        if (recommendation === undefined) return
        const server = yield* startRestServer("traced-rest", {
          ...(yield* databaseEnvironment),
          ...tracingTo(collector),
          ...noLoops
        })
        const answer = yield* requestOver(
          `${server.baseUrl}/api/v1/recommendations/${recommendation.id}/approve`,
          token,
          { method: "POST", headers: { "x-request-id": "trace-approve-1" } }
        )
        assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))

        // Spans arrive in batches: wait for the whole request, down to its delivery's SQL.
        const trace = yield* spansWhere(server, collector, "the approve's trace", (spans) => {
          const root = spans.find((span) => span.attributes.request_id === "trace-approve-1")
          if (root === undefined) return undefined
          const inTrace = spans.filter((span) => span.traceId === root.traceId)
          const names = new Set(inTrace.map((span) => span.name))
          const complete =
            names.has("Approval.approve") &&
            names.has("Recommendations.approve") &&
            names.has("WriteBackDelivery.deliver") &&
            inTrace.some(
              (span) =>
                span.kind === 3 && ancestorsOf(inTrace, span).some((a) => a.name === "WriteBackDelivery.deliver")
            )
          return complete ? { root, spans: inTrace } : undefined
        })
        const { root, spans } = trace

        assert.strictEqual(root.service, "margin-http")
        assert.strictEqual(root.kind, 2, "a server span")
        assert.strictEqual(root.parentSpanId, "", "the request starts the trace")
        assert.strictEqual(attribute(root, "http.route"), "/api/v1/recommendations/:recommendation_id/approve")
        assert.strictEqual(root.name, "POST /api/v1/recommendations/:recommendation_id/approve")
        assert.strictEqual(attribute(root, "http.response.status_code"), 200)
        assert.strictEqual(attribute(root, "workspace"), workspaceId)
        assert.match(String(attribute(root, "caller")), /^token:/)

        const named = (name: string) => {
          const span = spans.find((each) => each.name === name)
          assert.isDefined(span, `a ${name} span`)
          return span ?? root
        }
        const approval = named("Approval.approve")
        const useCase = named("Recommendations.approve")
        const delivery = named("WriteBackDelivery.deliver")
        assert.include(ancestorsOf(spans, approval), root)
        assert.include(ancestorsOf(spans, useCase), approval, "the use case runs inside the approval")
        assert.include(ancestorsOf(spans, delivery), approval, "and so does the request's own delivery")
        assert.strictEqual(attribute(delivery, "outcome"), "applied")
        assert.strictEqual(attribute(delivery, "recommendation"), recommendation.id)

        const statements = spans.filter((span) => span.kind === 3)
        const database = yield* TestDatabase
        // The database the statements ran on.
        const namespace = database.name
        const underUseCase = statements.filter((span) => ancestorsOf(spans, span).includes(useCase))
        assert.isAbove(underUseCase.length, 0, "the use case's SQL statements are its descendants")
        for (const statement of statements) {
          assert.strictEqual(statement.service, "margin-http")
          assert.strictEqual(attribute(statement, "db.system.name"), "postgresql")
          assert.strictEqual(attribute(statement, "db.namespace"), namespace)
          assert.strictEqual(statement.name, namespace)
          const text = String(attribute(statement, "db.query.text"))
          assert.isAbove(text.length, 0)
          // Values travel as parameters: the statement text names none of them.
          assert.notInclude(text, recommendation.id)
          assert.notInclude(text, workspaceId)
        }
        assert.isTrue(
          statements.some((span) => /\$1/.test(String(attribute(span, "db.query.text")))),
          "placeholders, not values"
        )
        for (const span of yield* collector.spans) {
          assert.notInclude(JSON.stringify(span.attributes), token, "the API token is in no span")
        }
        // Probes (GET /readyz while starting) start no trace, nor do SQL statements outside a span.
        const all = yield* collector.spans
        assert.isFalse(all.some((span) => span.name.includes("/readyz")))
        assert.isFalse(all.some((span) => span.kind === 3 && span.parentSpanId === ""))
        assert.deepStrictEqual(yield* collector.rejected, [])
      }).pipe(Effect.scoped),
    processTimeout
  )

  it.effect(
    "REST: a collector that does not answer fails no request; the exporter says so once",
    () =>
      Effect.gen(function* () {
        const { token } = yield* seedApprovalWorkspace()
        // A port nothing listens on.
        const closed = yield* freePort
        const server = yield* startRestServer("collector-down", {
          ...(yield* databaseEnvironment),
          ...tracingTo({ url: `http://127.0.0.1:${closed}` }),
          ...noLoops
        })
        const status = `${server.baseUrl}/api/v1/workspace/status`
        const twenty = Effect.forEach(Array.from({ length: 20 }), () =>
          Effect.map(requestOver(status, token, { method: "GET" }), (answer) => answer.status)
        )
        const allOk = Array.from({ length: 20 }, () => 200)
        assert.deepStrictEqual(yield* twenty, allOk, "while the exporter fails")
        yield* server.waitForOutput(/tracing: spans cannot be exported/)
        assert.deepStrictEqual(yield* twenty, allOk, "and once it gave up")
        const output = yield* server.output
        assert.strictEqual(output.match(/tracing: spans cannot be exported/g)?.length, 1, "logged once")
      }).pipe(Effect.scoped),
    processTimeout
  )

  it.effect(
    "worker: /metrics (behind METRICS_TOKEN) counts its deliveries and runs; /healthz, /readyz; its spans",
    () =>
      Effect.gen(function* () {
        const collector = yield* startCollector
        const { workspaceId } = yield* seedApprovalWorkspace()
        const [recommendation] = yield* seedPendingRecommendations(workspaceId, 3)
        assert.isDefined(recommendation)
        if (recommendation === undefined) return
        yield* approveWithoutDelivery(workspaceId, recommendation.id)
        const run = yield* seedRun(workspaceId, { status: "queued" })
        const port = yield* freePort
        const base = `http://127.0.0.1:${port}`
        const worker = yield* startWorker("observed-worker", {
          ...(yield* databaseEnvironment),
          ...tracingTo(collector),
          WORKER_METRICS_PORT: String(port),
          METRICS_TOKEN: "scrape-secret"
        })

        const scrape = Effect.map(get(`${base}/metrics`, "scrape-secret"), (reply) => reply.text)
        yield* worker.waitUntil(
          Effect.map(
            scrape,
            (text) =>
              sample(text, "margin_write_backs_total", '{outcome="applied"}') === 1 &&
              sample(text, "margin_runs_total", '{status="succeeded"}') === 1
          ),
          "the delivery and the run counted",
          Duration.seconds(90)
        )
        assert.strictEqual((yield* writeBackOf(workspaceId, recommendation.id)).status, "applied")
        const text = yield* scrape
        for (const family of [
          "margin_runs_total counter",
          "margin_run_items_analysed_total counter",
          "margin_write_backs_total counter",
          "margin_write_back_attempts_total counter",
          "margin_write_back_attempts_to_settle histogram",
          "margin_write_back_outbox_depth gauge",
          "margin_write_back_outbox_oldest_age_seconds gauge",
          "process_cpu_seconds_total counter",
          "process_resident_memory_bytes gauge"
        ]) {
          assert.include(text, `# TYPE ${family}`)
        }
        assert.strictEqual(sample(text, "margin_runs_total", '{status="running"}'), 1)
        assert.strictEqual(sample(text, "margin_runs_total", '{status="failed"}'), 0, "every status from zero")
        assert.isAbove(sample(text, "margin_run_items_analysed_total") ?? 0, 0)
        assert.strictEqual(sample(text, "margin_write_back_attempts_total"), 1)
        assert.strictEqual(sample(text, "margin_write_back_outbox_depth"), 0)
        assert.isAbove(sample(text, "process_resident_memory_bytes") ?? 0, 0)

        assert.strictEqual((yield* get(`${base}/metrics`)).status, 401, "METRICS_TOKEN as on the REST server")
        assert.strictEqual((yield* get(`${base}/healthz`)).status, 200)
        const ready = yield* get(`${base}/readyz`)
        assert.strictEqual(ready.status, 200)
        assert.deepStrictEqual(JSON.parse(ready.text), { status: "ready" })

        const { delivery, execution, spans } = yield* spansWhere(worker, collector, "the worker's spans", (spans) => {
          const delivery = spans.find(
            (span) => span.name === "WriteBackDelivery.deliver" && span.attributes.recommendation === recommendation.id
          )
          const execution = spans.find((span) => span.name === "RunExecutor.execute" && span.attributes.run === run.id)
          return delivery !== undefined && execution !== undefined ? { delivery, execution, spans } : undefined
        })
        for (const root of [delivery, execution]) {
          assert.strictEqual(root.service, "margin-worker")
          assert.strictEqual(root.parentSpanId, "", "each job starts its own trace")
          assert.strictEqual(attribute(root, "workspace"), workspaceId)
          const statements = spans.filter((span) => span.kind === 3 && ancestorsOf(spans, span).includes(root))
          assert.isAbove(statements.length, 0, `${root.name} has its SQL statements as descendants`)
        }
        assert.strictEqual(attribute(delivery, "outcome"), "applied")
        // The loops poll all along: an idle poll starts no trace.
        assert.isFalse(spans.some((span) => span.kind === 3 && span.parentSpanId === ""))
      }).pipe(Effect.scoped),
    processTimeout
  )
})
