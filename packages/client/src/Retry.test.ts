import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { ApiError, RateLimitedError, ServiceUnavailableError } from "./ApiError.ts"
import { type ClientConfig, defaultMaxRetries } from "./ClientConfig.ts"
import { InvalidRequest, TimeoutError, TransportError, UnexpectedResponse } from "./ClientError.ts"
import { MarginClient } from "./MarginClient.ts"
import { createClient } from "./PromiseClient.ts"
import { isRepeatable, maxRetryAfterSeconds, retryDelayOf } from "./Retry.ts"

/** Retries, timeouts, a custom fetch and cancellation, on a fetch that answers from a script. */

const requestId = "4b1f0c1e-6c55-4a49-9d53-1f0f3f3c9a11"
const run = {
  id: "run_1",
  status: "queued",
  subset_tags: [],
  trigger: "api",
  requested_by: "token:tok_1",
  items_total: 0,
  items_analysed: 0,
  recommendations_count: 0,
  alerts_count: 0,
  error: null,
  created_at: "2026-11-27T10:00:00.000Z",
  started_at: null,
  finished_at: null
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } })

const limited = (retryAfter: number) =>
  json(
    429,
    { code: "rate_limited", message: "Over the budget.", request_id: requestId },
    {
      "retry-after": String(retryAfter)
    }
  )

const unavailable = () =>
  json(503, { code: "service_unavailable", message: "Retry shortly.", request_id: requestId }, { "retry-after": "0" })

/** A fetch answering each request with the next step of `script`; the requests it saw. */
const scripted = (script: ReadonlyArray<(init: RequestInit | undefined) => Promise<Response>>) => {
  const seen: Array<{ readonly url: string; readonly authorization: string | null }> = []
  const fetch: typeof globalThis.fetch = (input, init) => {
    const request = new Request(input, init)
    seen.push({ url: request.url, authorization: request.headers.get("authorization") })
    const step = script[Math.min(seen.length - 1, script.length - 1)]
    return step === undefined ? Promise.reject(new Error("no script")) : step(init)
  }
  return { fetch, seen }
}

/** A fetch that never answers, until its request is aborted. */
const hanging = (init: RequestInit | undefined) =>
  new Promise<Response>((_, reject) => {
    const signal = init?.signal
    signal?.addEventListener("abort", () => reject(signal.reason))
  })

const config = (fetch: typeof globalThis.fetch, more: Partial<ClientConfig> = {}): ClientConfig => ({
  baseUrl: "http://margin.test",
  token: "pck_script",
  fetch,
  ...more
})

const calling = <A, E>(clientConfig: ClientConfig, use: (client: MarginClient["Service"]) => Effect.Effect<A, E>) =>
  Effect.provide(MarginClient.use(use), MarginClient.layerFetch(clientConfig))

describe("retries", () => {
  it("only the operations the catalogue calls repeatable: reads and idempotent commands", () => {
    for (const id of [
      "listRuns",
      "getRun",
      "acceptRecommendation",
      "approveRecommendation",
      "snoozeAlert",
      "healthz"
    ]) {
      assert.isTrue(isRepeatable(id), id)
    }
    // A reject again is a 409; a trigger again queues a second run (the client sends it with a key).
    for (const id of ["rejectRecommendation", "triggerRun"]) assert.isFalse(isRepeatable(id), id)
  })

  it("waits the service's Retry-After, else backs off exponentially with jitter; never for the caller's errors", () => {
    const fields = { status: 429, message: "", requestId }
    const cases: ReadonlyArray<readonly [string, ReturnType<typeof retryDelayOf>, ReturnType<typeof retryDelayOf>]> = [
      [
        "429 Retry-After 7",
        retryDelayOf(new RateLimitedError({ ...fields, code: "rate_limited", retryAfter: 7 }), 0, 0.5),
        Duration.seconds(7)
      ],
      [
        "503 Retry-After 5",
        retryDelayOf(
          new ServiceUnavailableError({ ...fields, status: 503, code: "service_unavailable", retryAfter: 5 }),
          1,
          0.5
        ),
        Duration.seconds(5)
      ],
      [
        "Retry-After beyond the cap",
        retryDelayOf(
          new RateLimitedError({ ...fields, code: "rate_limited", retryAfter: maxRetryAfterSeconds + 1 }),
          0,
          0
        ),
        undefined
      ],
      [
        "transport, first retry, no jitter",
        retryDelayOf(new TransportError({ message: "" }), 0, 0),
        Duration.millis(250)
      ],
      [
        "transport, third retry, most jitter",
        retryDelayOf(new TransportError({ message: "" }), 2, 1),
        Duration.seconds(2)
      ],
      [
        "timeout, far retry: capped",
        retryDelayOf(new TimeoutError({ message: "", timeoutMillis: 1 }), 10, 1),
        Duration.seconds(8)
      ],
      ["502 page", retryDelayOf(new UnexpectedResponse({ status: 502, message: "" }), 0, 0), Duration.millis(250)],
      ["a body outside the API", retryDelayOf(new UnexpectedResponse({ status: null, message: "" }), 0, 0), undefined],
      ["404", retryDelayOf(new ApiError({ ...fields, status: 404, code: "not_found" }), 0, 0), undefined],
      ["refused before sending", retryDelayOf(new InvalidRequest({ message: "" }), 0, 0), undefined]
    ]
    for (const [name, delay, expected] of cases) assert.deepStrictEqual(delay, expected, name)
  })

  it.live("a read answered 429 then 503 is sent again after Retry-After, and succeeds", () =>
    Effect.gen(function* () {
      const { fetch, seen } = scripted([async () => limited(0), async () => unavailable(), async () => json(200, run)])
      const answer = yield* calling(config(fetch), (client) => client.getRun("run_1"))
      assert.strictEqual(answer.id, "run_1")
      assert.strictEqual(seen.length, 3)
    })
  )

  it.live("gives up after maxRetries, with the last error", () =>
    Effect.gen(function* () {
      const { fetch, seen } = scripted([async () => limited(0)])
      const error = yield* Effect.flip(calling(config(fetch), (client) => client.listRuns()))
      assert.isTrue(error._tag === "ApiError" && error.code === "rate_limited")
      assert.strictEqual(seen.length, 1 + defaultMaxRetries)
      const once = scripted([async () => limited(0)])
      yield* Effect.flip(calling(config(once.fetch, { maxRetries: 0 }), (client) => client.listRuns()))
      assert.strictEqual(once.seen.length, 1)
    })
  )

  it.live("a reject and a trigger without a key are sent once, whatever the answer", () =>
    Effect.gen(function* () {
      const { fetch, seen } = scripted([async () => unavailable()])
      const error = yield* Effect.flip(
        calling(config(fetch), (client) => client.rejectRecommendation("rec_1", { reason: "too high" }))
      )
      assert.isTrue(error._tag === "ApiError" && error.code === "service_unavailable")
      assert.strictEqual(seen.length, 1)
    })
  )

  it.live("a trigger carries one Idempotency-Key on every attempt, so it is retried like a read", () =>
    Effect.gen(function* () {
      const keys: Array<string | null> = []
      const { fetch, seen } = scripted([
        async (init) => {
          keys.push(new Headers(init?.headers).get("idempotency-key"))
          return unavailable()
        },
        async (init) => {
          keys.push(new Headers(init?.headers).get("idempotency-key"))
          return json(202, run)
        }
      ])
      assert.strictEqual((yield* calling(config(fetch), (client) => client.triggerRun())).id, "run_1")
      assert.strictEqual(seen.length, 2)
      assert.match(keys[0] ?? "", /^[0-9a-f-]{36}$/)
      assert.strictEqual(keys[1], keys[0])
      // A key of the caller's own is sent as given; each call without one gets a fresh one.
      const own = scripted([
        async (init) => {
          keys.push(new Headers(init?.headers).get("idempotency-key"))
          return json(202, run)
        }
      ])
      yield* calling(config(own.fetch), (client) =>
        Effect.andThen(client.triggerRun({}, { idempotencyKey: "mine" }), client.triggerRun())
      )
      assert.strictEqual(keys[2], "mine")
      assert.notStrictEqual(keys[3], keys[0])
    })
  )

  it.live("a broken connection is retried with backoff, then a TransportError", () =>
    Effect.gen(function* () {
      const { fetch, seen } = scripted([
        () => Promise.reject(new TypeError("fetch failed")),
        async () => json(200, run)
      ])
      assert.strictEqual((yield* calling(config(fetch), (client) => client.getRun("run_1"))).id, "run_1")
      assert.strictEqual(seen.length, 2)
      const broken = scripted([() => Promise.reject(new TypeError("fetch failed"))])
      const error = yield* Effect.flip(
        calling(config(broken.fetch, { maxRetries: 1 }), (client) => client.getRun("run_1"))
      )
      assert.strictEqual(error._tag, "TransportError")
      assert.strictEqual(broken.seen.length, 2)
    })
  )

  it.live("an attempt over the timeout is abandoned (its request aborted) and fails with TimeoutError", () =>
    Effect.gen(function* () {
      const aborted: Array<boolean> = []
      const { fetch, seen } = scripted([
        (init) => {
          init?.signal?.addEventListener("abort", () => aborted.push(true))
          return hanging(init)
        }
      ])
      const error = yield* Effect.flip(
        calling(config(fetch, { timeout: 30, maxRetries: 1 }), (client) => client.getRun("run_1"))
      )
      assert.deepStrictEqual(error, new TimeoutError({ message: "no answer within 30 ms", timeoutMillis: 30 }))
      assert.strictEqual(seen.length, 2)
      assert.deepStrictEqual(aborted, [true, true])
    })
  )
})

describe("the promise face", () => {
  it("sends through the configured fetch, with the token", async () => {
    const { fetch, seen } = scripted([async () => json(200, run)])
    const margin = createClient(config(fetch))
    assert.strictEqual((await margin.getRun("run_1")).id, "run_1")
    assert.deepStrictEqual(seen, [{ url: "http://margin.test/api/v1/runs/run_1", authorization: "Bearer pck_script" }])
    await margin.close()
  })

  it("an AbortSignal abandons the call: the request is aborted and the promise rejects with the signal's reason", async () => {
    const aborts: Array<unknown> = []
    const { fetch } = scripted([
      (init) => {
        init?.signal?.addEventListener("abort", () => aborts.push(init.signal?.reason))
        return hanging(init)
      }
    ])
    const margin = createClient(config(fetch))
    const controller = new AbortController()
    const call = margin.listRuns({ limit: 5 }, { signal: controller.signal })
    setTimeout(() => controller.abort(new Error("the user went away")), 20)
    const reason = await call.then(
      () => undefined,
      (error: unknown) => error
    )
    assert.instanceOf(reason, Error)
    assert.strictEqual(reason instanceof Error ? reason.message : "", "the user went away")
    assert.strictEqual(aborts.length, 1)
    // Aborted before it starts: nothing is sent.
    const none = scripted([async () => json(200, run)])
    const again = createClient(config(none.fetch))
    await again.getRun("run_1", { signal: AbortSignal.abort() }).then(
      () => assert.fail("an aborted call resolved"),
      (error: unknown) => assert.strictEqual(error instanceof DOMException ? error.name : "", "AbortError")
    )
    assert.strictEqual(none.seen.length, 0)
    await Promise.all([margin.close(), again.close()])
  })
})
