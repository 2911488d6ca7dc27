import { runStatements } from "./runStatements.ts"

/**
 * Who was told of a deprecated operation, when, and how (docs/contract.md, "Versioning and deprecation"; `marginctl deprecation
 * notify`). One row per (operation, workspace, user): the primary key is what makes a notice go
 * out once. The address is kept as it was when the notice was sent (a user may change theirs).
 */
export const statements: ReadonlyArray<string> = [
  `CREATE TABLE deprecation_notices (
    operation text COLLATE "C" NOT NULL CHECK (operation ~ '^[A-Za-z][A-Za-z0-9]*$'),
    workspace_id text COLLATE "C" NOT NULL REFERENCES workspaces (id),
    user_id text COLLATE "C" NOT NULL REFERENCES users (id),
    email text NOT NULL,
    notified_at timestamptz NOT NULL,
    transport text NOT NULL CONSTRAINT deprecation_notices_transport_check CHECK (transport IN ('smtp', 'eml')),
    PRIMARY KEY (operation, workspace_id, user_id)
  )`
]

export default runStatements(statements)
