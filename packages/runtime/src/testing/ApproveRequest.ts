import { Effect, Option, Schema } from "effect"

/** What a server process answered to one request. */
export interface Answer {
  readonly status: number
  /** The JSON body; null when the body was not a JSON object or nothing answered (status 0). */
  readonly body: Readonly<Record<string, unknown>> | null
  readonly retryAfter: string | null
  /** Milliseconds from sending the request to reading the whole answer. */
  readonly elapsedMs: number
}

/** What the REST server answered to one approve. */
export type ApproveAnswer = Answer

const parseJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))

const asRecord = (value: unknown): Readonly<Record<string, unknown>> | null =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value } : null

/** One request to `url` with the token as its bearer credential and `body` as JSON, as a client sends it. */
export const requestOver = (
  url: string,
  token: string,
  options: {
    readonly method: "GET" | "POST"
    readonly body?: unknown
    readonly headers?: Readonly<Record<string, string>>
  }
): Effect.Effect<Answer> =>
  Effect.promise(async () => {
    const started = performance.now()
    const answer = await fetch(url, {
      method: options.method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        ...options.headers
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
    }).then(
      async (response) => ({
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        text: await response.text()
      }),
      () => ({ status: 0, retryAfter: null, text: "" })
    )
    const body = asRecord(Option.getOrNull(parseJson(answer.text)))
    return { status: answer.status, body, retryAfter: answer.retryAfter, elapsedMs: performance.now() - started }
  })

/** POST /api/v1/recommendations/<id>/approve with the token, as a client would send it. */
export const approveOver = (baseUrl: string, token: string, recommendationId: string): Effect.Effect<ApproveAnswer> =>
  requestOver(`${baseUrl}/api/v1/recommendations/${recommendationId}/approve`, token, { method: "POST" })
