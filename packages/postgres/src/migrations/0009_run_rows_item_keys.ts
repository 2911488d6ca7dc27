import { runStatements } from "./runStatements.ts"

/**
 * Recommendations and alerts reference their catalog item again (migration 0006 had dropped the
 * keys for 1.5 to 2 s of database CPU per million-item run). Since 0006, the other changes of
 * docs/runs.md brought such a run to 8-14 s, well inside its 20 s target, and the schema, not only
 * the executor, should say that a recommendation or an alert is about an item of its own
 * workspace. The key is (workspace_id, item_id) -> catalog_items (workspace_id, id): the catalog's
 * primary key since 0007, so an item of another workspace cannot be referenced.
 */
export const statements: ReadonlyArray<string> = [
  `ALTER TABLE recommendations ADD CONSTRAINT recommendations_item_fkey
    FOREIGN KEY (workspace_id, item_id) REFERENCES catalog_items (workspace_id, id)`,
  `ALTER TABLE alerts ADD CONSTRAINT alerts_item_fkey
    FOREIGN KEY (workspace_id, item_id) REFERENCES catalog_items (workspace_id, id)`
]

export default runStatements(statements)
