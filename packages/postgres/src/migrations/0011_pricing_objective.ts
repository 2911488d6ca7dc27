import { runStatements } from "./runStatements.ts"

/**
 * The profit objective (docs/pricing.md): the policy's objective, prior elasticity and competitor
 * positioning limit; the items' competitor price; the recommendations' elasticity interval, the new
 * rule codes, and the elasticity sources `item` / `pooled` / `prior` (stored rows are mapped:
 * `assumed_zero` is `prior`, `arc` and `log_log` are `item`, their interval the point itself).
 * A partial index finds the items with a price history, the evidence a run pools before pricing,
 * without reading the rest of the catalog. The value lists are written out: a shipped migration never
 * changes with the code.
 */
const within = (column: string, values: ReadonlyArray<string>) =>
  `CHECK (${column} IN (${values.map((value) => `'${value}'`).join(", ")}))`

export const statements: ReadonlyArray<string> = [
  `ALTER TABLE workspaces
    ADD COLUMN objective text NOT NULL DEFAULT 'profit'
      CONSTRAINT workspaces_objective_check ${within("objective", ["profit", "target_margin"])},
    ADD COLUMN default_elasticity double precision NOT NULL DEFAULT -1.5
      CONSTRAINT workspaces_default_elasticity_check CHECK (default_elasticity < 0 AND default_elasticity >= -10),
    ADD COLUMN max_premium_over_competitor double precision
      CONSTRAINT workspaces_max_premium_check CHECK (max_premium_over_competitor >= 0)`,
  `ALTER TABLE catalog_items ADD COLUMN competitor_price bigint CHECK (competitor_price >= 0)`,
  `CREATE INDEX catalog_items_with_history_idx ON catalog_items (workspace_id, id)
    WHERE price_history <> '[]'::jsonb`,
  `ALTER TABLE recommendations
    DROP CONSTRAINT recommendations_elasticity_source_check,
    DROP CONSTRAINT recommendations_rule_check,
    ADD COLUMN elasticity_low double precision NOT NULL DEFAULT 0,
    ADD COLUMN elasticity_high double precision NOT NULL DEFAULT 0`,
  `UPDATE recommendations SET
    elasticity_source = CASE elasticity_source WHEN 'assumed_zero' THEN 'prior' ELSE 'item' END,
    elasticity_low = elasticity,
    elasticity_high = elasticity
  WHERE elasticity_source IN ('assumed_zero', 'arc', 'log_log')`,
  `ALTER TABLE recommendations
    ADD CONSTRAINT recommendations_elasticity_source_check ${within("elasticity_source", ["item", "pooled", "prior"])},
    ADD CONSTRAINT recommendations_rule_check ${within("rule", [
      "floor_exceeds_step",
      "ceiling_exceeds_step",
      "step_limited",
      "below_floor",
      "above_ceiling",
      "above_competitor_limit",
      "below_profit_optimum",
      "above_profit_optimum",
      "below_target_margin",
      "above_target_margin"
    ])}`
]

export default runStatements(statements)
