import type { Caller } from "@margin/edge/access"
import { HttpApiMiddleware } from "effect/http-api"
import {
  InsufficientScopeError,
  RateLimitedError,
  RepositoryErrorError,
  TokenUnusableError,
  UnauthorizedError,
  WorkspaceForbiddenError
} from "./ApiErrors.ts"

/**
 * The middleware that resolves the `Caller` of every /api/v1 operation before anything of the
 * request is read, with the `RouteAccess` annotation of the endpoint: credential, rate budget,
 * workspace, scope, token_unusable. It reads the `Authorization` header itself, so that "missing" and "malformed"
 * can be told apart.
 *
 * A plain middleware, not one declaring `HttpApiSecurity.bearer`: HttpApiBuilder applies a plain
 * one once per route, when it builds it, where a security middleware runs a generator per request
 * (decoding the credential into a `Redacted` that nothing here reads, wrapping the handler's errors)
 * and calls the middleware again each time. The OpenAPI document still says which bearer
 * credentials each operation accepts (SecuritySchemes.ts, from the operation catalogue). Its server
 * side is AuthenticationLayer.ts: this file is part of the definition a client imports
 * (`@margin/rest/api`).
 */
export class Authentication extends HttpApiMiddleware.Service<Authentication, { provides: Caller }>()(
  "margin/http/Authentication",
  {
    error: [
      UnauthorizedError,
      RateLimitedError,
      WorkspaceForbiddenError,
      InsufficientScopeError,
      TokenUnusableError,
      RepositoryErrorError
    ]
  }
) {}
