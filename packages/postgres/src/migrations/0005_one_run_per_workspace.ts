import { runStatements } from "./runStatements.ts"

/**
 * A workspace's runs execute one at a time (docs/runs.md, "One run per workspace at a time").
 *
 * Two runs of one workspace executing at once could each supersede the other's open
 * recommendations before inserting their own, leaving two open recommendations for one item. A
 * run is held from its claim (lease_owner set) until it finishes: the claim passes over queued
 * runs of a workspace that holds one, and this unique index makes the database refuse a second
 * hold however the claims interleave (the loser of the race claims again).
 *
 * A database with more than one held run of a workspace (workers of an older version) keeps the
 * oldest held; the others lose their lease: their worker's next heartbeat finds the run taken
 * over and stops, and the run is claimed again, after the held one, from its first item (a run is
 * safe to execute again).
 */
export const statements: ReadonlyArray<string> = [
  `UPDATE runs SET lease_owner = NULL, lease_expires_at = NULL
    WHERE status IN ('queued', 'running') AND lease_owner IS NOT NULL
      AND EXISTS (
        SELECT 1 FROM runs older
        WHERE older.workspace_id = runs.workspace_id AND older.status IN ('queued', 'running')
          AND older.lease_owner IS NOT NULL AND (older.created_at, older.id) < (runs.created_at, runs.id)
      )`,
  `CREATE UNIQUE INDEX runs_held_workspace_key ON runs (workspace_id)
    WHERE status IN ('queued', 'running') AND lease_owner IS NOT NULL`
]

export default runStatements(statements)
