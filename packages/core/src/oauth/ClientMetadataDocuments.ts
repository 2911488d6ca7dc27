import { Context, type Effect, Schema } from "effect"

/** What a client ID metadata document says, as read (the server validates it). */
export interface ClientMetadataDocument {
  readonly clientId: unknown
  readonly clientName: unknown
  readonly redirectUris: unknown
  readonly tokenEndpointAuthMethod: unknown
  /** How long the document may be kept (its Cache-Control max-age, in seconds); 0 or absent: not kept. */
  readonly maxAgeSeconds?: number | undefined
}

/** The document could not be had: refused address, too large, too slow, a redirect, not JSON. */
export class ClientMetadataUnavailable extends Schema.TaggedError<ClientMetadataUnavailable>()(
  "ClientMetadataUnavailable",
  { url: Schema.String, reason: Schema.String }
) {}

/**
 * Client ID metadata documents: a client whose `client_id` is an https URL is described by the
 * JSON document at that URL. The adapter fetches it within strict limits and never from an
 * address this service must not reach (private, loopback, link-local), so that a client_id
 * cannot make the server probe its own network.
 */
export class ClientMetadataDocuments extends Context.Service<
  ClientMetadataDocuments,
  { readonly fetch: (url: string) => Effect.Effect<ClientMetadataDocument, ClientMetadataUnavailable> }
>()("margin/core/ClientMetadataDocuments") {}
