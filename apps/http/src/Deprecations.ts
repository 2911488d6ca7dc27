/**
 * The one place to deprecate a v1 operation (spec section 9): list its endpoint identifier here
 * and the OpenAPI document marks it `deprecated: true`. It keeps working for at least six months
 * after owners and admins are notified; then it may be removed, never changed.
 */
export const deprecatedOperations: ReadonlySet<string> = new Set<string>([])
