import { runStatements } from "./runStatements.ts"

/**
 * The sign-in links already used (docs/mcp.md): a link is single-use. Only the hex SHA-256 of the
 * link's nonce is stored, with the link's expiry, after which the row may be deleted (the link's
 * signature refuses it by then).
 */
export const statements: ReadonlyArray<string> = [
  `CREATE TABLE oauth_login_links (
    nonce_hash text COLLATE "C" PRIMARY KEY CHECK (nonce_hash ~ '^[0-9a-f]{64}$'),
    expires_at timestamptz NOT NULL,
    used_at timestamptz NOT NULL
  )`,
  `CREATE INDEX oauth_login_links_expires_idx ON oauth_login_links (expires_at)`,
  `CREATE INDEX oauth_tokens_expires_idx ON oauth_tokens (expires_at)`
]

export default runStatements(statements)
