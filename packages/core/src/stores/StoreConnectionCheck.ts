import { Context, type Effect, type Redacted, Schema } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { StoreConnection, StorePlatform } from "./StoreConnection.ts"

/**
 * A store connection refused at connect time, with the reason to show the merchant: the shop is not
 * a myshopify domain, the platform refused the token, the token opens another shop, or (`unavailable`)
 * the platform could not be reached to check it.
 */
export class StoreConnectionRefused extends Schema.TaggedError<StoreConnectionRefused>()("StoreConnectionRefused", {
  message: Schema.String,
  unavailable: Schema.Boolean
}) {}

/** What a checked connection is stored as: the shop under its canonical name. */
export interface CheckedConnection {
  readonly shop: string | null
  /** The shop's name, as the platform calls it (Shopify's `shop.name`); null for the sandbox. */
  readonly shopName: string | null
}

/**
 * The platforms' side of connecting a store (docs/stores.md, "Connecting"): `check` reads the store
 * once with the credentials before anything is stored (Shopify: `shop { name myshopifyDomain }`);
 * `prepare` readies a connected store (the sandbox: the catalog's prices copied into it).
 */
export class StoreConnectionCheck extends Context.Service<
  StoreConnectionCheck,
  {
    readonly check: (request: {
      readonly platform: StorePlatform
      readonly shop: string | null
      readonly accessToken: Redacted.Redacted<string> | null
    }) => Effect.Effect<CheckedConnection, StoreConnectionRefused>
    /** Answers how many variants it put in the store (the sandbox), null when it had nothing to do. */
    readonly prepare: (connection: StoreConnection) => Effect.Effect<number | null, RepositoryError>
  }
>()("margin/core/StoreConnectionCheck") {}
