import { runStatements } from "./runStatements.ts"

/**
 * The imports of a workspace's catalog, read back by id (docs/api.md, POST /api/v1/catalog/imports),
 * and the scope `catalog:write` that runs one: the scope lists of tokens and OAuth grants and codes
 * grow by it (a token or grant made before keeps the scopes it had). The lists are written out: a
 * shipped migration never changes with the code.
 */
const scopes = `ARRAY[
  'runs:read', 'runs:trigger', 'recommendations:read', 'recommendations:write', 'recommendations:approve',
  'alerts:read', 'alerts:write', 'catalog:read', 'catalog:write', 'reports:read', 'workspace:read'
]::text[]`

export const statements: ReadonlyArray<string> = [
  `CREATE TABLE catalog_imports (
    id text COLLATE "C" PRIMARY KEY,
    workspace_id text COLLATE "C" NOT NULL REFERENCES workspaces (id),
    status text NOT NULL CHECK (status IN ('succeeded')),
    format text NOT NULL CHECK (format IN ('csv', 'jsonl')),
    dry_run boolean NOT NULL,
    summary jsonb NOT NULL CHECK (jsonb_typeof(summary) = 'object'),
    requested_by text NOT NULL,
    created_at timestamptz NOT NULL,
    finished_at timestamptz NOT NULL
  )`,
  `CREATE INDEX catalog_imports_workspace_idx ON catalog_imports (workspace_id, created_at DESC, id DESC)`,
  `ALTER TABLE api_tokens DROP CONSTRAINT api_tokens_scopes_check,
    ADD CONSTRAINT api_tokens_scopes_check CHECK (scopes <@ ${scopes})`,
  `ALTER TABLE oauth_grants DROP CONSTRAINT oauth_grants_scopes_check,
    ADD CONSTRAINT oauth_grants_scopes_check CHECK (scopes <@ ${scopes})`,
  `ALTER TABLE oauth_authorization_codes DROP CONSTRAINT oauth_authorization_codes_scopes_check,
    ADD CONSTRAINT oauth_authorization_codes_scopes_check CHECK (scopes <@ ${scopes})`
]

export default runStatements(statements)
