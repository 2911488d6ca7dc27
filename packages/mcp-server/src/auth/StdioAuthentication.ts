import type { CallerShape } from "@margin/edge/auth"
import { Caller } from "@margin/edge/auth"
import { Config, Effect, Redacted, Ref, Schema } from "effect"
import { McpSchema, McpServer } from "effect/ai"
import { type AdmissionRefusal, agentAdmission, refusalResponse } from "./AgentAdmission.ts"

/**
 * A refusal of the stdio server, as a JSON-RPC error (a transport has no HTTP status to answer
 * with): `data` is the envelope REST and MCP over HTTP answer, `{ code, message }`.
 */
export class AgentRefused extends Schema.Error<AgentRefused>("AgentRefused")({
  ...McpSchema.McpErrorBase.fields,
  _tag: Schema.tag("AgentRefused"),
  code: Schema.tag(-32001)
}) {}

const refused = (failure: AdmissionRefusal) => {
  const { body } = refusalResponse(failure)
  return new AgentRefused({ message: body.message, data: body })
}

/**
 * The API token of the local agent, required (the stdio entry checks it before opening the
 * database); the message says what is missing, where a bare schema would say "Expected string".
 */
export const marginToken = Config.schema(
  Schema.Redacted(Schema.String.annotate({ message: "not set; give the API token (pck_...) the agent uses" })),
  "MARGIN_TOKEN"
)

/**
 * The caller of a local agent that starts the server as a subprocess: the API token of
 * MARGIN_TOKEN, admitted as over HTTP (budget, workspace, plan) on every tools/call. List requests
 * run this once per tool, so they reuse the last admission instead of spending 17 budget units.
 */
export const StdioAuthentication = McpServer.middleware<{ provides: Caller }>()(
  Effect.gen(function* () {
    const admit = yield* agentAdmission
    const token = yield* marginToken
    const credentials = { authorization: `Bearer ${Redacted.value(token)}`, workspaceHeader: undefined }
    const last = yield* Ref.make<CallerShape | null>(null)
    const admitNow = admit(credentials).pipe(
      Effect.tap((caller) => Ref.set(last, caller)),
      Effect.mapError(refused)
    )
    return (effect, { method }) =>
      Effect.gen(function* () {
        const known = method === "tools/call" ? null : yield* Ref.get(last)
        const caller = known ?? (yield* admitNow)
        return yield* Effect.provideService(effect, Caller, caller)
      })
  })
)
