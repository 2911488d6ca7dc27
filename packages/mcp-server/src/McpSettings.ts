import { Config, Context, Effect, Layer } from "effect"

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
}

const list = (text: string): ReadonlyArray<string> =>
  text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")

/** MCP_ALLOWED_ORIGINS (comma-separated, default none) and MCP_PUBLIC_URL (default: the request's Host). */
export const mcpSettingsConfig: Config.Config<McpSettingsShape> = Config.all({
  origins: Config.String("MCP_ALLOWED_ORIGINS").pipe(Config.withDefault("")),
  publicUrl: Config.option(Config.URL("MCP_PUBLIC_URL"))
}).pipe(
  Config.map(({ origins, publicUrl }) => ({
    allowedOrigins: list(origins),
    publicUrl: publicUrl._tag === "Some" ? publicUrl.value.origin : null
  }))
)

/** The MCP front door's own settings; both `npm start` and the standalone MCP entry read them. */
export class McpSettings extends Context.Service<McpSettings, McpSettingsShape>()("margin/mcp/McpSettings") {
  static readonly layerWith = (settings: McpSettingsShape): Layer.Layer<McpSettings> =>
    Layer.succeed(McpSettings, McpSettings.of(settings))

  /** `mcpSettingsConfig`. */
  static readonly layerConfig: Layer.Layer<McpSettings, Config.ConfigError> = Layer.effect(
    McpSettings,
    Effect.map(mcpSettingsConfig, McpSettings.of)
  )
}
