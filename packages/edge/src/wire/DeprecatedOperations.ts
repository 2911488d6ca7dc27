import { type Deprecation, type DeprecationsInvalid, validateDeprecations } from "@margin/core/deprecation/Deprecation"
import { Context, Effect } from "effect"

/**
 * The one place to deprecate a v1 operation (docs/contract.md, "Versioning and deprecation"). An entry here, and nowhere else:
 * - marks the operation `deprecated: true` in the OpenAPI document (HttpApp of @margin/rest);
 * - adds `Deprecation`, `Sunset` (and `Link` when given) to every response of its route;
 * - lets `marginctl deprecation notify --operation <id>` e-mail every workspace's owners and admins.
 * docs/api.md lists the same operations under "Deprecated operations" (a test compares them).
 * The sunset must be at least 6 calendar months after the notice, or no process starts. Steps:
 * docs/operations.md, "Deprecating an operation". Nothing is deprecated today.
 */
export const productionDeprecations: ReadonlyArray<Deprecation> = []

/** The deprecations a process uses: `productionDeprecations`, unless a test provides its own. */
export const DeprecatedOperations = Context.Reference<ReadonlyArray<Deprecation>>("margin/edge/DeprecatedOperations", {
  defaultValue: () => productionDeprecations
})

/** The deprecations in use, checked, by operation; invalid ones fail (the process refuses to start). */
export const deprecationsInUse: Effect.Effect<ReadonlyMap<string, Deprecation>, DeprecationsInvalid> = Effect.flatMap(
  Effect.service(DeprecatedOperations),
  (entries) => Effect.fromResult(validateDeprecations(entries))
)
