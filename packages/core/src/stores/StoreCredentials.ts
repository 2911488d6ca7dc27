import { Context, Effect, Layer, Option, Redacted } from "effect"
import type { RepositoryError } from "../kernel/Errors.ts"
import type { StoreConnection } from "./StoreConnection.ts"

/**
 * Reads the secret a store adapter needs to call a platform (the Shopify Admin API access token).
 * Core's use cases never read credentials back (StoreConnectionRepository.connect only stores them): the
 * store adapters use this port, and the Postgres adapter that keeps them encrypted implements it.
 * `None` means the connection has no credentials stored.
 */
export class StoreCredentials extends Context.Service<
  StoreCredentials,
  {
    readonly accessToken: (
      connection: StoreConnection
    ) => Effect.Effect<Option.Option<Redacted.Redacted>, RepositoryError>
  }
>()("margin/core/StoreCredentials") {
  /** Fixed tokens by shop: for tests, demos and single-shop deployments configured from the environment. */
  static readonly layerStatic = (tokensByShop: Readonly<Record<string, string>>) =>
    Layer.succeed(
      StoreCredentials,
      StoreCredentials.of({
        accessToken: (connection) =>
          Effect.succeed(
            Option.fromNullishOr(connection.shop === null ? undefined : tokensByShop[connection.shop]).pipe(
              Option.map((token) => Redacted.make(token))
            )
          )
      })
    )
}
