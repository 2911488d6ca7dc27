import { runStatements } from "./runStatements.ts"

/**
 * Foreign keys that runs can afford (docs/runs.md, "Scale").
 *
 * A run inserts a recommendation or an alert for a large share of a catalog's items, and supersedes
 * as many. Every one of those rows referenced the same workspace row and the same run row, and a
 * foreign-key check locks the referenced row (FOR KEY SHARE): on a row shared by the whole batch
 * that was a third of the cost of each insert, measured on PostgreSQL 15. So:
 * - recommendations and alerts keep their item's foreign key, made composite (workspace_id,
 *   item_id) -> catalog_items (workspace_id, id): one check on a row of its own, which also
 *   guarantees that a row names an item of its own workspace (stronger than before);
 * - they lose the foreign keys to workspaces and runs, and recommendations the one of
 *   superseded_by_run_id: runs and workspaces are never deleted, and only the run executor writes
 *   these rows, for the run it holds, in the run's workspace.
 * The unique index on catalog_items (workspace_id, id) that the composite key needs replaces the
 * plain index on the same columns (runs read chunks by it), so the catalog keeps as many indexes.
 */
export const statements: ReadonlyArray<string> = [
  `CREATE UNIQUE INDEX catalog_items_workspace_id_key ON catalog_items (workspace_id, id)`,
  `DROP INDEX catalog_items_run_idx`,

  `ALTER TABLE recommendations
    DROP CONSTRAINT recommendations_workspace_id_fkey,
    DROP CONSTRAINT recommendations_run_id_fkey,
    DROP CONSTRAINT recommendations_superseded_by_run_id_fkey,
    DROP CONSTRAINT recommendations_item_id_fkey,
    ADD CONSTRAINT recommendations_item_fkey FOREIGN KEY (workspace_id, item_id)
      REFERENCES catalog_items (workspace_id, id)`,

  `ALTER TABLE alerts
    DROP CONSTRAINT alerts_workspace_id_fkey,
    DROP CONSTRAINT alerts_run_id_fkey,
    DROP CONSTRAINT alerts_item_id_fkey,
    ADD CONSTRAINT alerts_item_fkey FOREIGN KEY (workspace_id, item_id)
      REFERENCES catalog_items (workspace_id, id)`
]

export default runStatements(statements)
