import { runStatements } from "./runStatements.ts"

/**
 * A run remembers the merchant's decisions (docs/pricing.md, "Decisions a run remembers"): each
 * recommendation records what it rested on besides its price and estimate (the item's cost and
 * competitor price, and the run's policy as a short key; null on older rows), and an accepted
 * recommendation a newer run supersedes says by which recommendation and why. A partial index finds an
 * item's latest decided recommendation; a run's own rows are `new` and never enter it.
 */
export const statements: ReadonlyArray<string> = [
  `ALTER TABLE recommendations
    ADD COLUMN basis_cost bigint,
    ADD COLUMN basis_competitor_price bigint,
    ADD COLUMN basis_policy text,
    ADD COLUMN superseded_by text COLLATE "C",
    ADD COLUMN superseded_reason text`,
  `CREATE INDEX recommendations_decided_item_idx ON recommendations (workspace_id, item_id, created_at, id)
    WHERE status IN ('pending_approval', 'approved', 'applied', 'write_back_failed', 'rejected', 'dismissed')`
]

export default runStatements(statements)
