import { runStatements } from "./runStatements.ts"

/**
 * What an import needs to know of an item's price (docs/cli.md, section catalog import): since when the
 * current price is known to be in force (`price_set_at`; the items' last change until now), and the
 * price a write-back replaced while the write-back's price stands (`written_back_from`).
 */
export const statements: ReadonlyArray<string> = [
  `ALTER TABLE catalog_items
    ADD COLUMN price_set_at timestamptz,
    ADD COLUMN written_back_from bigint CHECK (written_back_from >= 0)`,
  `UPDATE catalog_items SET price_set_at = updated_at`,
  // A row written without it (by hand, by a bench) has its price from when it was written.
  `ALTER TABLE catalog_items ALTER COLUMN price_set_at SET NOT NULL, ALTER COLUMN price_set_at SET DEFAULT now()`
]

export default runStatements(statements)
