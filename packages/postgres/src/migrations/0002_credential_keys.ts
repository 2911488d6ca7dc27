import { runStatements } from "./runStatements.ts"

/**
 * The development key that seals store credentials when STORE_CREDENTIALS_KEY is not set
 * (CredentialCipher): generated once by the first process that needs it. A platform-level table,
 * like identity_keys: it belongs to no workspace. Production sets STORE_CREDENTIALS_KEY and this
 * table stays empty.
 */
export const statements: ReadonlyArray<string> = [
  `CREATE TABLE credential_keys (
    kid text PRIMARY KEY CHECK (kid = 'development'),
    key bytea NOT NULL CHECK (length(key) = 32),
    created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
  )`
]

export default runStatements(statements)
