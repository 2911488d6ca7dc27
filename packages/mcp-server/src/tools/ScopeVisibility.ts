import { Caller } from "@margin/edge/auth"
import { Effect } from "effect"
import { McpServer } from "effect/ai"
import { toolAccess } from "./MarginToolkit.ts"

/**
 * A token lists only the tools its scopes allow. A call to another one still reaches its handler,
 * which refuses it as REST refuses the route (`toolHandlers`: insufficient_scope naming the
 * `required` scope, token_unusable): the contract's scope rule (docs/contract.md), over MCP too. Hiding the tool from the
 * call as well would answer "Tool not found", which tells the agent nothing it can act on.
 */
export const ScopeVisibility = McpServer.visibility(({ method, target }) =>
  method === "tools/call"
    ? Effect.succeed(true)
    : Effect.map(Caller, (caller) => {
        const access = toolAccess.get(target)
        return access !== undefined && caller.scopes.includes(access.scope)
      })
)
