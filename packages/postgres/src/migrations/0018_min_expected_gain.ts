import { runStatements } from "./runStatements.ts"

/**
 * The pricing policy's materiality floor (docs/pricing.md): a profit move is advised only when its
 * expected monthly gain is at least this share of the item's monthly profit. Existing workspaces get the
 * default, 1 %.
 */
export const statements: ReadonlyArray<string> = [
  `ALTER TABLE workspaces
    ADD COLUMN min_expected_gain double precision NOT NULL DEFAULT 0.01
      CONSTRAINT workspaces_min_expected_gain_check CHECK (min_expected_gain >= 0 AND min_expected_gain < 1)`
]

export default runStatements(statements)
