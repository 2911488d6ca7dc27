import { assert, layer } from "@effect/vitest"
import { type ClientConfig, createClient, isApiError, isMarginError, type PromiseClient } from "@margin/client"
import { aWorkspaceWithOwner, seedRecommendation } from "@margin/edge/testing/World"
import { baseUrl, layer as testServer } from "@margin/runtime/testing/TestServer"
import { Effect } from "effect"
import {
  describeError,
  errorScenarios,
  expectApprovedOnce,
  expectScenarioError,
  scenarioCodes
} from "./ClientScenarios.ts"
import { unavailableCatalog } from "./UnavailableCatalog.ts"

/** The promise face of @margin/client against the REST server, over real HTTP (docs/client.md). */

/** A promise client for the test's calls, closed when they are done. */
const withClient = <A>(config: ClientConfig, use: (client: PromiseClient) => Promise<A>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => createClient(config)),
    (client) => Effect.promise(() => use(client)),
    (client) => Effect.promise(() => client.close())
  )

/** What the call rejected with, read as a promise user reads it: `isMarginError`, then `code`. */
const rejectionOf = (call: Promise<unknown>) =>
  call.then(
    () => assert.fail("expected a rejection"),
    (error: unknown) => {
      if (!isMarginError(error)) return assert.fail(`not a MarginError: ${String(error)}`)
      return describeError(error)
    }
  )

layer(testServer(), { excludeTestServices: true })("client, promise face", (it) => {
  it.effect("paginate: a for await loop over every item of a list, following next_cursor", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const seeded: Array<string> = []
      for (let n = 0; n < 5; n++) seeded.push((yield* seedRecommendation(workspace, { createdAt: 3_000 + n })).id)
      const config = { baseUrl: yield* baseUrl, token: owner.token }
      const ids = yield* withClient(config, async (margin) => {
        const ids: Array<string> = []
        for await (const recommendation of margin.paginate("listRecommendations", { limit: 2 })) {
          ids.push(recommendation.id)
        }
        return ids
      })
      assert.deepStrictEqual(ids, [...seeded].reverse())
    })
  )

  it.effect("pages through recommendations with next_cursor, newest first", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const seeded: Array<string> = []
      for (let n = 0; n < 5; n++) seeded.push((yield* seedRecommendation(workspace, { createdAt: 1_000 + n })).id)
      const pages = yield* withClient({ baseUrl: yield* baseUrl, token: owner.token }, async (client) => {
        const pages: Array<ReadonlyArray<string>> = []
        let page = await client.listRecommendations({ limit: 2 })
        pages.push(page.data.map((recommendation) => recommendation.id))
        while (page.next_cursor !== null) {
          page = await client.listRecommendations({ limit: 2, cursor: page.next_cursor })
          pages.push(page.data.map((recommendation) => recommendation.id))
        }
        return pages
      })
      assert.deepStrictEqual(
        pages.map((page) => page.length),
        [2, 2, 1]
      )
      assert.deepStrictEqual(pages.flat(), [...seeded].reverse())
    })
  )

  it.effect("approve writes the price back once; the repeat answers {ok: true, idempotent: true}", () =>
    Effect.gen(function* () {
      const { workspace, owner } = yield* aWorkspaceWithOwner()
      const pending = yield* seedRecommendation(workspace, { status: "pending_approval" })
      const answers = yield* withClient({ baseUrl: yield* baseUrl, token: owner.token }, async (client) => [
        await client.approveRecommendation(pending.id),
        await client.approveRecommendation(pending.id)
      ])
      yield* expectApprovedOnce(pending.id, answers)
    })
  )

  it.effect("every error code of the contract rejects with an ApiError narrowed by code", () =>
    Effect.gen(function* () {
      const scenarios = yield* errorScenarios
      assert.deepStrictEqual(
        scenarios.map((scenario) => scenario.code),
        scenarioCodes
      )
      for (const scenario of scenarios) {
        const error = yield* withClient(scenario.config, (client) => rejectionOf(scenario.promise(client)))
        expectScenarioError(error, scenario)
      }
    })
  )

  it.effect("a rejection is the error itself, recognized by isApiError", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      const rejection = yield* withClient({ baseUrl: yield* baseUrl, token: owner.token }, (client) =>
        client.getRun("run_missing").then(
          () => undefined,
          (error: unknown) => error
        )
      )
      assert.isTrue(isApiError(rejection))
      if (!isApiError(rejection)) return
      assert.strictEqual(rejection.code, "not_found")
      assert.strictEqual(rejection.status, 404)
      assert.match(rejection.message, /run_missing/)
    })
  )
})

const limit = 3

layer(testServer({ rateLimit: limit }), { excludeTestServices: true })("client, promise face, rate limit", (it) => {
  it.effect("429 rate_limited carries retryAfter, the Retry-After seconds", () =>
    Effect.gen(function* () {
      const { owner } = yield* aWorkspaceWithOwner()
      // Asks until refused: a window that resets mid-way only means more asks, never a timing.
      const refused = yield* withClient(
        { baseUrl: yield* baseUrl, token: owner.token, maxRetries: 0 },
        async (client) => {
          for (let n = 0; n < 4 * (limit + 1); n++) {
            const error = await client.listRuns().then(
              () => undefined,
              (error: unknown) => error
            )
            if (isApiError(error) && error.code === "rate_limited") return error.retryAfter
            if (error !== undefined) return assert.fail(`refused otherwise: ${String(error)}`)
          }
          return assert.fail(`never refused in ${4 * (limit + 1)} requests`)
        }
      )
      assert.isTrue(refused >= 1 && refused <= 60, String(refused))
    })
  )
})

layer(testServer({ override: unavailableCatalog }), { excludeTestServices: true })(
  "client, promise face, service unavailable",
  (it) => {
    it.effect("503 service_unavailable carries retryAfter, the Retry-After seconds", () =>
      Effect.gen(function* () {
        const { owner } = yield* aWorkspaceWithOwner()
        const error = yield* withClient({ baseUrl: yield* baseUrl, token: owner.token, maxRetries: 0 }, (client) =>
          rejectionOf(client.listCatalogItems())
        )
        assert.deepStrictEqual([error.code, error.status], ["service_unavailable", 503])
        assert.isTrue(typeof error.detail === "number" && error.detail >= 1, String(error.detail))
      })
    )
  }
)
