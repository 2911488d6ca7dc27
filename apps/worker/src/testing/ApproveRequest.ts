import { Effect, Option, Schema } from "effect"

/** What the REST server answered to one approve. */
export interface ApproveAnswer {
  readonly status: number
  /** The JSON body; null when the body was not JSON or nothing answered (status 0). */
  readonly body: Readonly<Record<string, unknown>> | null
  /** Milliseconds from sending the request to reading the whole answer. */
  readonly elapsedMs: number
}

const parseJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))

const asRecord = (value: unknown): Readonly<Record<string, unknown>> | null =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value } : null

/** POST /api/v1/recommendations/<id>/approve with the token, as a client would send it. */
export const approveOver = (baseUrl: string, token: string, recommendationId: string): Effect.Effect<ApproveAnswer> =>
  Effect.promise(async () => {
    const started = performance.now()
    const answer = await fetch(`${baseUrl}/api/v1/recommendations/${recommendationId}/approve`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` }
    }).then(
      async (response) => ({ status: response.status, text: await response.text() }),
      () => ({ status: 0, text: "" })
    )
    const body = asRecord(Option.getOrNull(parseJson(answer.text)))
    return { status: answer.status, body, elapsedMs: performance.now() - started }
  })
