import { Effect, Layer } from "effect"
import {
  type ClientMetadataDocument,
  ClientMetadataDocuments,
  ClientMetadataUnavailable
} from "../oauth/ClientMetadataDocuments.ts"

/** Core's tests' documents: those given, by URL; any other URL is unavailable, as an unreachable one. */
export const layer = (documents: Readonly<Record<string, ClientMetadataDocument>> = {}) =>
  Layer.succeed(
    ClientMetadataDocuments,
    ClientMetadataDocuments.of({
      fetch: (url) => {
        const document = documents[url]
        return document === undefined
          ? Effect.fail(new ClientMetadataUnavailable({ url, reason: "address not allowed" }))
          : Effect.succeed(document)
      }
    })
  )
