import { RecommendationEntity } from "@margin/core/recommendations/Recommendation"
import { entityRows } from "./PgEntityRows.ts"

/**
 * The `recommendations` table as the repository reads and writes it, derived from the declaration
 * of a recommendation (`superseded_by_run_id` is bookkeeping of supersedeOpen, not domain, and is
 * not declared). PgRecommendationRows.test.ts holds the fast decoder to the row schema's answers.
 */
export const recommendationRows = entityRows(RecommendationEntity)
