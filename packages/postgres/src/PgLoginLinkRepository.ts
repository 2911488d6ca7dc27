import { LoginLinkRepository } from "@margin/core/oauth/LoginLinkRepository"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { toTimestamptz } from "./PgColumns.ts"
import { asRepository } from "./PgRepositoryError.ts"
import { countOf, touchedAny } from "./PgRows.ts"

export const layer: Layer.Layer<LoginLinkRepository, never, SqlClient.SqlClient> = Layer.effect(
  LoginLinkRepository,
  Effect.gen(function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    return LoginLinkRepository.of({
      // The primary key decides a race: the second INSERT waits for the first and then does nothing.
      use: (nonceHash, expiresAt, at) =>
        sql`INSERT INTO oauth_login_links (nonce_hash, expires_at, used_at)
          VALUES (${nonceHash}, ${toTimestamptz(expiresAt)}, ${toTimestamptz(at)})
          ON CONFLICT (nonce_hash) DO NOTHING RETURNING nonce_hash`.pipe(
          Effect.map(touchedAny),
          asRepository("LoginLinkRepository.use")
        ),
      deleteExpired: (now) =>
        sql`WITH deleted AS (DELETE FROM oauth_login_links WHERE expires_at <= ${toTimestamptz(now)} RETURNING 1)
          SELECT count(*) AS count FROM deleted`.pipe(
          Effect.flatMap(countOf),
          asRepository("LoginLinkRepository.deleteExpired")
        )
    })
  })
)
