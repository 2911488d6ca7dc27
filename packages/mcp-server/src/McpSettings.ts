import { Scope } from "@margin/core/access/Scope"
import { PublicOrigin } from "@margin/edge/serving"
import { Config, Context, Duration, Effect, Layer, Schema } from "effect"

/** What MCP sessions may hold of the process's memory (McpSessions). */
export interface SessionLimits {
  /** Live sessions per API token; one more ends the token's least recently used. */
  readonly perToken: number
  /** Live sessions in the process; one more ends the least recently used of all. */
  readonly total: number
  /** A session unused this long ends. */
  readonly idleTimeoutMs: number
  /** The largest body of a request without a session (an initialize); larger: 413 payload_too_large. */
  readonly initializeMaxBytes: number
}

/**
 * A session keeps its initialize payload (at most `initializeMaxBytes`, 16 KiB: a client's name,
 * version and capabilities take a few hundred bytes) and a little state, so the defaults bound
 * what sessions hold to about 1000 x 16 KiB = 16 MiB.
 */
export const defaultSessionLimits: SessionLimits = {
  perToken: 10,
  total: 1_000,
  idleTimeoutMs: 30 * 60 * 1000,
  initializeMaxBytes: 16 * 1024
}

export interface McpSettingsShape {
  /**
   * Browser origins allowed to call /mcp, exactly (`https://console.example.com`). A request with
   * any other Origin is refused before anything else (DNS rebinding); requests without an Origin
   * (agents, SDK clients, Claude Desktop and Code) are not browsers and pass.
   */
  readonly allowedOrigins: ReadonlyArray<string>
  /**
   * Where clients reach this server (`https://margin.example.com`), for the protected-resource
   * metadata and the WWW-Authenticate header; null: the request's own Host, over http.
   */
  readonly publicUrl: string | null
  readonly sessions: SessionLimits
  /**
   * The scopes the 401 challenge offers an OAuth client to start with (ScopeChallenge); null: the
   * read-only tools' scopes. Absent: null.
   */
  readonly startingScopes?: ReadonlyArray<Scope> | null
}

const list = (text: string): ReadonlyArray<string> =>
  text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")

const PositiveInt = Schema.FiniteFromString.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1)))

const positiveInt = (name: string, fallback: number) =>
  Config.schema(PositiveInt, name).pipe(Config.withDefault(fallback))

/**
 * MCP_SESSIONS_PER_TOKEN (10), MCP_SESSIONS_MAX (1000), MCP_SESSION_IDLE_TIMEOUT (30 minutes),
 * MCP_INITIALIZE_MAX_BYTES (16384).
 */
export const sessionLimitsConfig: Config.Config<SessionLimits> = Config.all({
  perToken: positiveInt("MCP_SESSIONS_PER_TOKEN", defaultSessionLimits.perToken),
  total: positiveInt("MCP_SESSIONS_MAX", defaultSessionLimits.total),
  idleTimeoutMs: Config.Duration("MCP_SESSION_IDLE_TIMEOUT").pipe(
    Config.map((duration) => Math.max(1, Duration.toMillis(duration))),
    Config.withDefault(defaultSessionLimits.idleTimeoutMs)
  ),
  initializeMaxBytes: positiveInt("MCP_INITIALIZE_MAX_BYTES", defaultSessionLimits.initializeMaxBytes)
})

/**
 * MCP_ALLOWED_ORIGINS (comma-separated, default none), MCP_PUBLIC_URL (default: the request's
 * Host), MCP_STARTING_SCOPES (comma-separated scopes, as marginctl's --scopes; default: the
 * read-only tools' scopes) and the session limits
 * (`sessionLimitsConfig`).
 */
export const mcpSettingsConfig: Config.Config<McpSettingsShape> = Config.all({
  origins: Config.String("MCP_ALLOWED_ORIGINS").pipe(Config.withDefault("")),
  publicUrl: Config.option(Config.URL("MCP_PUBLIC_URL")),
  startingScopes: Config.option(Config.Array(Scope, "MCP_STARTING_SCOPES")),
  sessions: sessionLimitsConfig
}).pipe(
  Config.map(({ origins, publicUrl, startingScopes, sessions }) => ({
    allowedOrigins: list(origins),
    publicUrl: publicUrl._tag === "Some" ? publicUrl.value.origin : null,
    startingScopes: startingScopes._tag === "Some" && startingScopes.value.length > 0 ? startingScopes.value : null,
    sessions
  }))
)

/** The MCP front door's own settings; both `npm start` and the standalone MCP entry read them. */
export class McpSettings extends Context.Service<McpSettings, McpSettingsShape>()("margin/mcp/McpSettings") {
  /** With the `PublicOrigin` its `publicUrl` says, which the OAuth server beside it reads. */
  static readonly layerWith = (settings: McpSettingsShape): Layer.Layer<McpSettings | PublicOrigin> =>
    Layer.merge(Layer.succeed(McpSettings, McpSettings.of(settings)), PublicOrigin.layerWith(settings.publicUrl))

  /** `mcpSettingsConfig`, with its `PublicOrigin`. */
  static readonly layerConfig: Layer.Layer<McpSettings | PublicOrigin, Config.ConfigError> = Layer.unwrap(
    Effect.map(mcpSettingsConfig, McpSettings.layerWith)
  )
}

/**
 * Said once at start when the server listens beyond loopback without MCP_PUBLIC_URL: the OAuth
 * server, the metadata and the sign-in links then answer only requests whose Host is a loopback
 * name (originOf, @margin/edge/serving), so clients reaching it by another name, or through a proxy,
 * are refused until MCP_PUBLIC_URL names the origin they use.
 */
export const publicUrlAdvice = (listenHost: string, settings: McpSettingsShape): Effect.Effect<void> =>
  settings.publicUrl === null && !["127.0.0.1", "localhost", "::1", "[::1]"].includes(listenHost)
    ? Effect.logWarning(
        `MCP_PUBLIC_URL is not set and the server listens on ${listenHost}: OAuth, the MCP metadata and sign-in links answer only requests to localhost, 127.0.0.1 or [::1]; set MCP_PUBLIC_URL to the origin clients use (behind a proxy, its public https origin)`
      )
    : Effect.void
