import { Caller } from "@margin/edge/auth"
import { Effect } from "effect"
import { McpServer } from "effect/ai"
import { toolAccess } from "./MarginToolkit.ts"

/**
 * An API token lists only the tools its scopes allow: its scopes are fixed, so a tool beyond them
 * is one it can never use. A call to another one still reaches its handler, which refuses it as
 * REST refuses the route (`toolHandlers`: insufficient_scope naming the `required` scope,
 * token_unusable): the contract's scope rule (docs/contract.md), over MCP too. Hiding the tool from
 * the call as well would answer "Tool not found", which tells the agent nothing it can act on.
 *
 * An OAuth grant lists every tool: its scopes can grow, and a call beyond them is answered with the
 * step-up challenge (`ScopeChallenge`) that has its client ask the user for the missing scope. A
 * tool the agent cannot see, it would never call, and the grant would never grow.
 */
export const ScopeVisibility = McpServer.visibility(({ method, target }) =>
  method === "tools/call"
    ? Effect.succeed(true)
    : Effect.map(Caller, (caller) => {
        const access = toolAccess.get(target)
        return access !== undefined && (caller.credential === "grant" || caller.scopes.includes(access.scope))
      })
)
