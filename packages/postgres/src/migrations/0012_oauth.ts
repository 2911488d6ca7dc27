import { runStatements } from "./runStatements.ts"

/**
 * The OAuth 2.1 authorization server of the MCP resource (docs/mcp.md): clients (registered, or read
 * from a client ID metadata document whose URL is the id), grants (one live per user, client and
 * workspace), authorization codes and tokens. Secrets, codes and tokens are stored only as the hex
 * SHA-256 of what was handed out. The value lists are written out: a shipped migration never changes
 * with the code.
 */
const id = `text COLLATE "C"`
const hashed = (column: string) => `text COLLATE "C" CHECK (${column} ~ '^[0-9a-f]{64}$')`
const within = (column: string, values: ReadonlyArray<string>) =>
  `CHECK (${column} IN (${values.map((value) => `'${value}'`).join(", ")}))`
const scopes = (column: string) => `CHECK (${column} <@ ARRAY[
      'runs:read', 'runs:trigger', 'recommendations:read', 'recommendations:write', 'recommendations:approve',
      'alerts:read', 'alerts:write', 'catalog:read', 'reports:read', 'workspace:read'
    ]::text[])`

export const statements: ReadonlyArray<string> = [
  `CREATE TABLE oauth_clients (
    id ${id} PRIMARY KEY,
    name text NOT NULL,
    redirect_uris text[] NOT NULL,
    metadata_url text,
    token_endpoint_auth_method text NOT NULL
      CONSTRAINT oauth_clients_auth_method_check ${within("token_endpoint_auth_method", ["none", "client_secret_basic", "client_secret_post"])},
    secret_hash ${hashed("secret_hash")},
    created_at timestamptz NOT NULL
  )`,
  `CREATE TABLE oauth_grants (
    id ${id} PRIMARY KEY,
    user_id ${id} NOT NULL REFERENCES users (id),
    client_id ${id} NOT NULL REFERENCES oauth_clients (id),
    workspace_id ${id} NOT NULL REFERENCES workspaces (id),
    scopes text[] NOT NULL CONSTRAINT oauth_grants_scopes_check ${scopes("scopes")},
    resource text NOT NULL,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
  )`,
  `CREATE UNIQUE INDEX oauth_grants_live_key ON oauth_grants (user_id, client_id, workspace_id) WHERE revoked_at IS NULL`,
  `CREATE INDEX oauth_grants_user_idx ON oauth_grants (user_id, created_at DESC, id DESC)`,
  `CREATE TABLE oauth_authorization_codes (
    code_hash ${hashed("code_hash")} PRIMARY KEY,
    grant_id ${id} NOT NULL REFERENCES oauth_grants (id),
    client_id ${id} NOT NULL,
    redirect_uri text NOT NULL,
    code_challenge text NOT NULL,
    scopes text[] NOT NULL CONSTRAINT oauth_authorization_codes_scopes_check ${scopes("scopes")},
    resource text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  )`,
  `CREATE INDEX oauth_authorization_codes_expires_idx ON oauth_authorization_codes (expires_at)`,
  `CREATE TABLE oauth_tokens (
    token_hash ${hashed("token_hash")} PRIMARY KEY,
    grant_id ${id} NOT NULL REFERENCES oauth_grants (id),
    kind text NOT NULL CONSTRAINT oauth_tokens_kind_check ${within("kind", ["access", "refresh"])},
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    revoked_at timestamptz
  )`,
  `CREATE INDEX oauth_tokens_grant_idx ON oauth_tokens (grant_id)`
]

export default runStatements(statements)
