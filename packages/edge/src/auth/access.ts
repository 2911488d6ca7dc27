/**
 * @margin/edge/access: who calls and what an operation asks of its caller, as tags and values
 * alone. An API definition needs these and nothing of the credential checks (`@margin/edge/auth`
 * also loads JWT verification and node:crypto), so a client deriving from the definition runs
 * without them, in a browser too.
 */
export * from "./Caller.ts"
export * from "./RouteAccess.ts"
