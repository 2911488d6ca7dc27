import { runStatements } from "./runStatements.ts"

/**
 * The sales history a store sync reads from the store's orders (docs/stores.md, "Orders"): one row per
 * order line, keyed by the line's id in the store so that a line read again replaces itself; and where
 * the reading of orders stands, next to the catalog's in `store_sync_states`.
 */
export const statements: ReadonlyArray<string> = [
  `CREATE TABLE store_sales (
    workspace_id text COLLATE "C" NOT NULL REFERENCES workspaces (id),
    line_ref text COLLATE "C" NOT NULL,
    sku text COLLATE "C" NOT NULL,
    sold_at timestamptz NOT NULL,
    units integer NOT NULL CHECK (units >= 0),
    unit_price bigint NOT NULL CHECK (unit_price >= 0),
    currency text NOT NULL,
    PRIMARY KEY (workspace_id, line_ref)
  )`,
  "CREATE INDEX store_sales_sku_idx ON store_sales (workspace_id, sku, sold_at)",
  "CREATE INDEX store_sales_sold_at_idx ON store_sales (workspace_id, sold_at)",
  `ALTER TABLE store_sync_states ADD COLUMN orders jsonb NOT NULL
    DEFAULT '{"syncedUpTo":null,"fullSyncedUpTo":null,"pending":null}'::jsonb
    CHECK (jsonb_typeof(orders) = 'object')`
]

export default runStatements(statements)
