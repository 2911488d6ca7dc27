import { Caller } from "@margin/edge/Caller"
import { Effect } from "effect"
import { McpServer } from "effect/ai"
import { toolAccess } from "./MarginToolkit.ts"

/**
 * A token sees only the tools its scopes allow: the others are left out of tools/list and a call
 * to one fails as if it did not exist. (Each handler checks the scope again, with token_unusable.)
 */
export const ScopeVisibility = McpServer.visibility(({ target }) =>
  Effect.map(Caller, (caller) => {
    const access = toolAccess.get(target)
    return access !== undefined && caller.scopes.includes(access.scope)
  })
)
