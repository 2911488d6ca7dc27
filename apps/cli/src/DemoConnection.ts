import { restListenConfig } from "@margin/runtime/cli"
import { Config, Option } from "effect"

/** Where the service `npm start` runs is reached: its REST base and its MCP endpoint. */
export interface DemoUrls {
  readonly base: string
  readonly mcp: string
}

/**
 * The URLs from the service's settings: HOST and PORT, as the REST server listens; `/mcp` on
 * MCP_PUBLIC_URL's origin when it is set, as the MCP metadata names it, else on the same base.
 */
export const demoUrlsConfig: Config.Config<DemoUrls> = Config.all({
  listen: restListenConfig,
  publicUrl: Config.option(Config.URL("MCP_PUBLIC_URL"))
}).pipe(
  Config.map(({ listen, publicUrl }) => {
    const host = listen.host.includes(":") ? `[${listen.host}]` : listen.host
    const base = `http://${host}:${listen.port}`
    return { base, mcp: `${Option.match(publicUrl, { onNone: () => base, onSome: (url) => url.origin })}/mcp` }
  })
)

/** Ready-to-paste requests, and how to connect an agent: printed by `marginctl demo` (and so `npm start`). */
export const tryItLines = (urls: DemoUrls, token: string, signInEmail: string): ReadonlyArray<string> => [
  "",
  "Try it once the service listens:",
  `  curl -s -H 'Authorization: Bearer ${token}' '${urls.base}/api/v1/recommendations?status=new&limit=5'`,
  `  curl -s -H 'Authorization: Bearer ${token}' ${urls.base}/api/v1/workspace/status`,
  "",
  `Connect an AI agent (MCP, Streamable HTTP): ${urls.mcp}`,
  `  claude mcp add --transport http margin ${urls.mcp} --header 'Authorization: Bearer ${token}'`,
  `  or add the URL to any MCP client and sign in as ${signInEmail} when it opens the browser (the link is logged here); docs/mcp.md`
]
