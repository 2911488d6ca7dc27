import { assert, describe, it } from "@effect/vitest"
import { seedApprovalWorkspace } from "@margin/runtime/testing/ApprovalWorld"
import { startMcpServer } from "@margin/runtime/testing/ChildProcesses"
import { startCollector } from "@margin/runtime/testing/FakeCollector"
import * as ScratchDatabase from "@margin/runtime/testing/ScratchDatabase"
import { Duration, Effect } from "effect"

/**
 * The MCP server alone (`npm run start:mcp`) gives every request an id as the REST server does:
 * the caller's `x-request-id` (or a fresh one) in the answer's header, in a tool's error result,
 * on the request's log line and its server span (with the caller and workspace); and counts its
 * requests in the HTTP metrics by path.
 */

const post = (url: URL, token: string, body: unknown, headers: Readonly<Record<string, string>> = {}) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        ...headers
      },
      body: JSON.stringify(body)
    })
    return { status: response.status, headers: response.headers, text: await response.text() }
  })

describe("request ids in the MCP server process", () => {
  it.live(
    "header, tool error result, log line and server span carry the caller's x-request-id; /mcp requests are counted",
    () =>
      Effect.gen(function* () {
        const database = yield* ScratchDatabase.ScratchDatabase
        const { token } = yield* seedApprovalWorkspace()
        const collector = yield* startCollector
        const mcp = yield* startMcpServer("mcp", {
          DATABASE_URL: database.url,
          RUN_WORKER_CONCURRENCY: "0",
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
          OTEL_BSP_SCHEDULE_DELAY: "100"
        })
        const initialized = yield* post(mcp.mcpUrl, token, {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } }
        })
        assert.strictEqual(initialized.status, 200, initialized.text)
        assert.match(initialized.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/, "a fresh id when none is sent")
        const session = { "mcp-session-id": initialized.headers.get("mcp-session-id") ?? "" }
        yield* post(mcp.mcpUrl, token, { jsonrpc: "2.0", method: "notifications/initialized" }, session)
        const answer = yield* post(
          mcp.mcpUrl,
          token,
          {
            jsonrpc: "2.0",
            id: 2,
            method: "tools/call",
            params: { name: "get_recommendation", arguments: { recommendation_id: "rec_missing" } }
          },
          { ...session, "x-request-id": "agent-call-9" }
        )
        assert.strictEqual(answer.headers.get("x-request-id"), "agent-call-9")
        assert.include(answer.text, '"isError":true', answer.text)
        assert.include(answer.text, '\\"request_id\\":\\"agent-call-9\\"', answer.text)
        yield* mcp.waitForOutput(/"message":"http request".*"request_id":"agent-call-9"/)
        const line =
          (yield* mcp.output)
            .split("\n")
            .find(
              (text) => text.includes('"message":"http request"') && text.includes('"request_id":"agent-call-9"')
            ) ?? ""
        assert.match(line, /"caller":"token:tok_[0-9a-z]+"/, "the line names the caller as the REST server's do")
        assert.match(line, /"workspace":"ws_[0-9a-z]+"/)
        const serverSpan = collector.spans.pipe(
          Effect.map((spans) => spans.find((span) => span.kind === 2 && span.attributes.request_id === "agent-call-9"))
        )
        yield* mcp.waitUntil(
          Effect.map(serverSpan, (span) => span !== undefined),
          "the tool call's server span",
          Duration.seconds(30)
        )
        const span = yield* serverSpan
        assert.match(
          String(span?.attributes.caller),
          /^token:tok_[0-9a-z]+$/,
          "the span names the caller as the line does"
        )
        assert.match(String(span?.attributes.workspace), /^ws_[0-9a-z]+$/)
        const metrics = yield* Effect.promise(() => fetch(`${mcp.baseUrl}/metrics`).then((response) => response.text()))
        assert.match(metrics, /margin_http_requests_total\{[^}]*route="\/mcp"[^}]*\} [1-9]/, metrics)
      }).pipe(Effect.scoped, Effect.provide(ScratchDatabase.layer)),
    { timeout: 120_000 }
  )
})
