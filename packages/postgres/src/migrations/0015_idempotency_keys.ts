import { runStatements } from "./runStatements.ts"

/**
 * The requests made with an `Idempotency-Key` (docs/api.md, "Idempotency-Key"): per workspace and
 * operation, the key, the request's canonical arguments and what it made. A row older than 24 hours
 * names nothing any more and is replaced by the key's next use.
 */
export const statements: ReadonlyArray<string> = [
  `CREATE TABLE idempotency_keys (
    workspace_id text COLLATE "C" NOT NULL,
    operation text COLLATE "C" NOT NULL,
    key text COLLATE "C" NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    fingerprint text NOT NULL,
    resource_id text COLLATE "C" NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, operation, key)
  )`
]

export default runStatements(statements)
