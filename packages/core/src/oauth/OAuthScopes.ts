import { Result } from "effect"
import { type Scope, scopes } from "../access/Scope.ts"

/** Why a `scope` parameter cannot be granted; the token endpoint answers `invalid_scope`. */
export interface ScopeRefused {
  readonly _tag: "ScopeRefused"
  /** The first requested scope that is unknown or outside what may be granted. */
  readonly scope: string
}

const isScope = (value: string): value is Scope => (scopes as ReadonlyArray<string>).includes(value)

/** The space-separated `scope` parameter as a set (RFC 6749 section 3.3), in the order first given. */
export const parseScopeParameter = (parameter: string): ReadonlyArray<string> => [
  ...new Set(parameter.split(" ").filter((part) => part !== ""))
]

/**
 * Narrows `allowed` to what `requested` names. Absent or empty, the request asks for all of
 * `allowed`; a scope outside it (unknown, or wider than the grant) refuses the request rather
 * than being dropped silently. The answer keeps the order of `scopes`, so equal sets compare equal.
 */
export const narrowScopes = (
  requested: string | undefined,
  allowed: ReadonlyArray<Scope>
): Result.Result<ReadonlyArray<Scope>, ScopeRefused> => {
  const names = requested === undefined ? [] : parseScopeParameter(requested)
  if (names.length === 0) return Result.succeed(scopes.filter((scope) => allowed.includes(scope)))
  const outside = names.find((name) => !isScope(name) || !allowed.includes(name))
  if (outside !== undefined) return Result.fail({ _tag: "ScopeRefused", scope: outside })
  return Result.succeed(scopes.filter((scope) => names.includes(scope)))
}

/** The `scope` parameter for a set of scopes. */
export const scopeParameter = (granted: ReadonlyArray<Scope>): string => granted.join(" ")
