import { runStatements } from "./runStatements.ts"

/**
 * Recommendations and alerts lose their item's foreign key (docs/runs.md, "What a run costs the
 * database").
 *
 * A foreign-key check is a query per inserted row that also locks the referenced catalog row
 * (FOR KEY SHARE): it writes the lock into the item's tuple, so every recommendation and alert of
 * a run dirtied and WAL-logged a page of catalog_items as well. Measured on PostgreSQL 15 it was 8
 * µs of database CPU per row, about a quarter of the cost of writing one, and 1.5 to 2 s of a
 * 1,000,000-item run. What the key guarded holds without it: only the run executor writes these
 * rows, with the ids of the items it has just read from the run's own workspace, and nothing deletes
 * catalog items (whatever comes to delete them must take their recommendations and alerts along).
 */
export const statements: ReadonlyArray<string> = [
  `ALTER TABLE recommendations DROP CONSTRAINT recommendations_item_fkey`,
  `ALTER TABLE alerts DROP CONSTRAINT alerts_item_fkey`
]

export default runStatements(statements)
