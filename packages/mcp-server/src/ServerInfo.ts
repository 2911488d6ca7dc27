import { McpProtocol } from "effect/ai"

/** The MCP revisions served; clients negotiate the newest they share. */
export const protocols = [McpProtocol.v2025_11_25, McpProtocol.v2025_06_18, McpProtocol.v2025_03_26] as const

export const serverInfo = { name: "margin", version: "1.0.0" } as const

/** Told to the agent at initialize: how the tools fit together. */
export const instructions = [
  "Margin recommends prices per catalog item to reach the workspace's target margin.",
  "Workflow: trigger_run analyses the catalog, get_run tells when it is done, list_recommendations (status new) shows what it found;",
  "accept_recommendation puts one up for approval, approve_recommendation writes the new price to the store (once), reject or dismiss ends it.",
  "Alerts flag margin problems: list_alerts, then snooze, resolve or dismiss.",
  "Money is integer minor units with a currency. Lists answer one page and a next_cursor; errors carry a code (not_found, conflict, forbidden_role...)."
].join(" ")
