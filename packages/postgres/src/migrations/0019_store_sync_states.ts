import { runStatements } from "./runStatements.ts"

/**
 * Where each workspace's store sync stands (docs/stores.md, "Store sync"): when the last applied read
 * began, the read a crashed sync left to finish, and the last sync's report. One row per workspace.
 */
export const statements: ReadonlyArray<string> = [
  `CREATE TABLE store_sync_states (
    workspace_id text COLLATE "C" PRIMARY KEY REFERENCES workspaces (id),
    synced_up_to timestamptz,
    full_synced_up_to timestamptz,
    pending jsonb CHECK (pending IS NULL OR jsonb_typeof(pending) = 'object'),
    last jsonb CHECK (last IS NULL OR jsonb_typeof(last) = 'object')
  )`
]

export default runStatements(statements)
