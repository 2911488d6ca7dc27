import type { RepositoryError } from "@margin/core/Errors"
import type { StoreConnection } from "@margin/core/StoreConnection"
import { Context, Effect, Layer, Option, Redacted } from "effect"

/**
 * Reads the secret a store adapter needs to call a platform (the Shopify Admin API access token).
 * Core never reads credentials back (StoreConnectionRepository.connect only stores them), so this port
 * lives with the store adapters; the Postgres adapter that keeps them encrypted implements it.
 * `None` means the connection has no credentials stored.
 */
export class StoreCredentials extends Context.Service<
  StoreCredentials,
  {
    readonly accessToken: (
      connection: StoreConnection
    ) => Effect.Effect<Option.Option<Redacted.Redacted>, RepositoryError>
  }
>()("margin/stores/StoreCredentials") {
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
