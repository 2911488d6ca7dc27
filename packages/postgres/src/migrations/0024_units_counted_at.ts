import { runStatements } from "./runStatements.ts"

/**
 * When an item's `units_sold_30d` were counted (the end of their 30 days): the price history records the
 * item's state once per period, and each point says when (`at` in the `price_history` JSON; points stored
 * before have none). Null for items stored before, and after an upsert, which does not say.
 */
export const statements: ReadonlyArray<string> = [`ALTER TABLE catalog_items ADD COLUMN units_counted_at timestamptz`]

export default runStatements(statements)
