import { runStatements } from "./runStatements.ts"

/**
 * The list indexes of recommendations and alerts in ascending order (docs/runs.md, "What a run
 * costs the database"), as migration 0007 did for catalog_items.
 *
 * They were (workspace_id, [status | run_id | kind | item_id,] created_at DESC, id DESC): a run's
 * rows are the newest, so each went to the left end of its range, where a full page splits in
 * half instead of the B-tree's fast path for growing keys at the right end. Measured on PostgreSQL
 * 15 by inserting a run's rows into copies of the tables: 1.75-1.87 s of database CPU for 118,191
 * recommendations with the descending indexes, 1.18-1.22 s with ascending ones; 1.18 against 0.95 s
 * for 88,519 alerts; about 1 s less for a 1,000,000-item run. The lists' `ORDER BY created_at DESC,
 * id DESC` (cursor included) reads the same indexes backwards.
 */
export const statements: ReadonlyArray<string> = [
  `DROP INDEX recommendations_list_idx`,
  `CREATE INDEX recommendations_list_idx ON recommendations (workspace_id, created_at, id)`,
  `DROP INDEX recommendations_status_idx`,
  `CREATE INDEX recommendations_status_idx ON recommendations (workspace_id, status, created_at, id)`,
  `DROP INDEX recommendations_run_idx`,
  `CREATE INDEX recommendations_run_idx ON recommendations (workspace_id, run_id, created_at, id)`,
  `DROP INDEX alerts_list_idx`,
  `CREATE INDEX alerts_list_idx ON alerts (workspace_id, created_at, id)`,
  `DROP INDEX alerts_status_idx`,
  `CREATE INDEX alerts_status_idx ON alerts (workspace_id, status, created_at, id)`,
  `DROP INDEX alerts_kind_idx`,
  `CREATE INDEX alerts_kind_idx ON alerts (workspace_id, kind, created_at, id)`,
  `DROP INDEX alerts_item_idx`,
  `CREATE INDEX alerts_item_idx ON alerts (workspace_id, item_id, created_at, id)`
]

export default runStatements(statements)
