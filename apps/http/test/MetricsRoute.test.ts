import { assert, layer } from "@effect/vitest"
import { aWorkspaceWithOwner } from "@margin/edge/testing/World"
import { call, layer as testServer } from "@margin/runtime/testing/TestServer"
import { ConfigProvider, Effect, Layer } from "effect"

/** The value of the sample `name{labels}` in a Prometheus text body, 0 when absent. */
const sample = (text: string, name: string, labels: Readonly<Record<string, string>>): number => {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`)
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    const close = line.lastIndexOf(" ")
    const head = line.slice(0, close)
    if (wanted.every((pair) => head.includes(pair))) return Number(line.slice(close + 1))
  }
  return 0
}

const scrape = Effect.map(call("GET", "/metrics"), (reply) => reply.text)

layer(testServer({ rateLimit: 3 }), { excludeTestServices: true })("GET /metrics", (it) => {
  it.effect("Prometheus text: requests, errors and latency by route template; rate-limited requests; outbox", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const before = yield* scrape
      const route = "/api/v1/runs/:run_id"
      const labels = { method: "GET", route, status: "404" }
      const requests = sample(before, "margin_http_requests_total", labels)
      const errors = sample(before, "margin_http_request_errors_total", labels)
      const latencyCount = sample(before, "margin_http_request_duration_seconds_count", { method: "GET", route })
      const limited = sample(before, "margin_rate_limited_requests_total", { route })

      for (const id of ["run_a", "run_b", "run_c", "run_d"]) {
        yield* call("GET", `/api/v1/runs/${id}`, { token: owner.token })
      }
      const reply = yield* call("GET", "/metrics")
      assert.strictEqual(reply.status, 200)
      assert.match(reply.headers["content-type"] ?? "", /^text\/plain; version=0\.0\.4/)
      const after = reply.text
      assert.strictEqual(sample(after, "margin_http_requests_total", labels) - requests, 3)
      assert.strictEqual(sample(after, "margin_http_request_errors_total", labels) - errors, 3)
      assert.strictEqual(
        sample(after, "margin_http_request_duration_seconds_count", { method: "GET", route }) - latencyCount,
        4
      )
      assert.strictEqual(sample(after, "margin_rate_limited_requests_total", { route }) - limited, 1)
      assert.notInclude(after, "run_a", "raw paths never become labels")
      assert.include(after, "# TYPE margin_http_request_duration_seconds histogram")
      assert.include(after, "margin_write_back_outbox_depth 0")
      assert.include(after, "margin_write_back_outbox_oldest_age_seconds 0")
    })
  )
})

const withToken = testServer().pipe(
  Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({ METRICS_TOKEN: "scrape-secret" })))
)

layer(withToken, { excludeTestServices: true })("GET /metrics behind METRICS_TOKEN", (it) => {
  it.effect("refuses a scrape without the token (401 envelope), serves one with it", () =>
    Effect.gen(function* () {
      const refused = yield* call("GET", "/metrics")
      assert.strictEqual(refused.status, 401)
      assert.include(refused.text, '"code":"unauthorized"')
      assert.strictEqual((yield* call("GET", "/metrics", { token: "wrong" })).status, 401)
      const served = yield* call("GET", "/metrics", { token: "scrape-secret" })
      assert.strictEqual(served.status, 200)
      assert.include(served.text, "margin_http_requests_total")
    })
  )
})
