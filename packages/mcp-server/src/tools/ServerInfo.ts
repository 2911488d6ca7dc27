import { McpProtocol } from "effect/ai"

/** The MCP revisions served; clients negotiate the newest they share. */
export const protocols = [McpProtocol.v2025_11_25, McpProtocol.v2025_06_18, McpProtocol.v2025_03_26] as const

export const serverInfo = { name: "margin", version: "1.0.0" } as const

/**
 * Told to the agent at initialize: how the tools fit together. It names every tool by its full
 * name, and no other snake_case word but error codes and list fields (ServerInfo.test.ts).
 */
export const instructions = [
  "Margin recommends prices per catalog item to reach the workspace's target margin.",
  "The catalog comes in with import_catalog (CSV or JSON lines; a line changes only what it mentions; a dry run first shows what it would do; get_catalog_import reads an import back), or from the connected store with sync_store (get_store_sync tells when it is done and what it did).",
  "Workflow: trigger_run analyses the catalog (list_catalog_items shows it), get_run tells when the run is done (list_runs lists them),",
  "list_recommendations (status new) shows what it found and get_recommendation one of them;",
  "accept_recommendation puts one up for approval, approve_recommendation writes the new price to the store (once),",
  "reject_recommendation (pending approval) or dismiss_recommendation ends it; undo_price_change writes an applied change's previous price back (once).",
  "Alerts flag margin problems: list_alerts and get_alert, then snooze_alert, resolve_alert or dismiss_alert.",
  "export_report is the margin report, one row per recommendation; get_workspace_status tells the plan and this month's usage.",
  "Money is integer minor units with a currency. Lists answer one page and a next_cursor; errors carry a code (not_found, conflict, forbidden_role...)."
].join(" ")
