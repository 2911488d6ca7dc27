import { assert, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Layer, Logger } from "effect"
import { defaultSessionLimits, McpSettings, publicUrlAdvice } from "./McpSettings.ts"

const settingsFrom = (env: Record<string, string>) =>
  Effect.provide(
    McpSettings,
    McpSettings.layerConfig.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))))
  )

it.effect("MCP_ALLOWED_ORIGINS is a comma-separated list; MCP_PUBLIC_URL keeps only the origin", () =>
  Effect.gen(function* () {
    const settings = yield* settingsFrom({
      MCP_ALLOWED_ORIGINS: " https://console.margin.example, http://localhost:5173 ,",
      MCP_PUBLIC_URL: "https://margin.example.com/some/path"
    })
    assert.deepStrictEqual(settings.allowedOrigins, ["https://console.margin.example", "http://localhost:5173"])
    assert.strictEqual(settings.publicUrl, "https://margin.example.com")
  })
)

it.effect("by default no browser origin is allowed and URLs follow the request's Host", () =>
  Effect.gen(function* () {
    const settings = yield* settingsFrom({})
    assert.deepStrictEqual(settings.allowedOrigins, [])
    assert.isNull(settings.publicUrl)
    assert.isNull(settings.startingScopes)
  })
)

it.effect("MCP_STARTING_SCOPES is a comma-separated list of scopes; an unknown one stops the start", () =>
  Effect.gen(function* () {
    const settings = yield* settingsFrom({ MCP_STARTING_SCOPES: "runs:read,runs:trigger,recommendations:read" })
    assert.deepStrictEqual(settings.startingScopes, ["runs:read", "runs:trigger", "recommendations:read"])
    assert.isTrue(Exit.isFailure(yield* Effect.exit(settingsFrom({ MCP_STARTING_SCOPES: "runs:read,runs:delete" }))))
  })
)

it.effect("sessions: 10 per token, 1000 in all, 30 idle minutes, 16 KiB initialize bodies; each settable", () =>
  Effect.gen(function* () {
    assert.deepStrictEqual((yield* settingsFrom({})).sessions, {
      perToken: 10,
      total: 1000,
      idleTimeoutMs: 30 * 60 * 1000,
      initializeMaxBytes: 16 * 1024
    })
    const set = yield* settingsFrom({
      MCP_SESSIONS_PER_TOKEN: "3",
      MCP_SESSIONS_MAX: "50",
      MCP_SESSION_IDLE_TIMEOUT: "5 minutes",
      MCP_INITIALIZE_MAX_BYTES: "4096"
    })
    assert.deepStrictEqual(set.sessions, { perToken: 3, total: 50, idleTimeoutMs: 300_000, initializeMaxBytes: 4096 })
  })
)

it.effect("listening beyond loopback without MCP_PUBLIC_URL is said at start, naming the setting", () =>
  Effect.gen(function* () {
    const said: Array<string> = []
    const capture = Logger.make<unknown, void>(({ message }) => {
      said.push(Array.isArray(message) ? message.map(String).join(" ") : String(message))
    })
    const advise = (host: string, publicUrl: string | null) =>
      publicUrlAdvice(host, { allowedOrigins: [], publicUrl, sessions: defaultSessionLimits }).pipe(
        Effect.provide(Logger.layer([capture]))
      )
    yield* advise("127.0.0.1", null)
    yield* advise("0.0.0.0", "https://margin.example.com")
    assert.deepStrictEqual(said, [])
    yield* advise("0.0.0.0", null)
    assert.strictEqual(said.length, 1)
    assert.include(said[0], "MCP_PUBLIC_URL")
  })
)
