import { runStatements } from "./runStatements.ts"

/**
 * Cheaper catalog writes, the same reads (docs/cli.md, "Performance").
 *
 * Every imported item updates each index of catalog_items; measured on PostgreSQL 15 by inserting
 * 1,000,000 rows server-side into copies of the table (database CPU), three of them could be had
 * for less without any query losing its index:
 * - The primary key on (id) and the unique index on (workspace_id, id) were two indexes over the
 *   same ids, and every query names the workspace with the id: the unique index becomes the
 *   primary key (same index, renamed catalog_items_pkey), the plain one goes. Runs still read their
 *   chunks by it (WHERE workspace_id = $1 AND id > $2 ORDER BY id); an id stays unique within its
 *   workspace, and is 80 random bits besides. About 1.5 to 2.5 s of CPU per million rows.
 * - The list index was (workspace_id, created_at DESC, id DESC): each new item is the smallest key
 *   in that order, so it went to the left end of the workspace's range, and those pages split in
 *   half instead of filling up. The same columns ascending take new items at the right end (the
 *   B-tree's fast path for growing keys), and `ORDER BY created_at DESC, id DESC` reads them
 *   backwards just as well. About 3 s per million rows.
 * - sku compared under the database's collation (C.UTF-8 or a locale: strcoll per comparison); the
 *   unique (workspace_id, sku) index and ON CONFLICT compare skus on every insert. A sku is an
 *   identifier, compared byte for byte like the ids ("C"): uniqueness is the same (equal means
 *   byte-equal under every deterministic collation), only an ORDER BY sku, which no query has,
 *   would sort differently. About 1.5 s per million rows.
 */
export const statements: ReadonlyArray<string> = [
  `ALTER TABLE catalog_items
    DROP CONSTRAINT catalog_items_pkey,
    ADD CONSTRAINT catalog_items_pkey PRIMARY KEY USING INDEX catalog_items_workspace_id_key`,
  `CREATE INDEX catalog_items_created_idx ON catalog_items (workspace_id, created_at, id)`,
  `DROP INDEX catalog_items_list_idx`,
  `ALTER TABLE catalog_items ALTER COLUMN sku TYPE text COLLATE "C"`
]

export default runStatements(statements)
