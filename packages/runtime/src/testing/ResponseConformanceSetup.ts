import { afterAll, assert } from "@effect/vitest"
import { recordedReplies } from "./RecordedReplies.ts"

/**
 * A vitest setup file (the apps' project, vitest.config.ts): after every test file, each answer the
 * REST test kit received in it must stay within the OpenAPI document (ResponseConformance.ts). The
 * document and Ajv are loaded only by files that called the server.
 */
afterAll(async () => {
  const replies = recordedReplies()
  if (replies.length === 0) return
  const { problemsOf } = await import("./ResponseConformance.ts")
  assert.deepStrictEqual(problemsOf(replies), [], `of ${replies.length} answers, some left the OpenAPI document`)
})
