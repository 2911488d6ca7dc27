/** @margin/edge/auth: who calls, resolved once per request for both front doors (tokens, sessions, scopes, the budget). */
export * from "./Authenticate.ts"
export * from "./Caller.ts"
export * as NodeOAuthSecrets from "./NodeOAuthSecrets.ts"
export * from "./RouteAccess.ts"
export * from "./SessionJwt.ts"
export * from "./SessionJwtKeys.ts"
export * from "./SessionJwtSigner.ts"
export * from "./TokenSecret.ts"
