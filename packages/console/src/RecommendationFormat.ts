import { formatMajorUnits } from "@margin/core/kernel/Money"
import { toIso } from "@margin/core/kernel/Timestamp"
import type { Recommendation } from "@margin/core/recommendations/Recommendation"

/** A price or an amount of the recommendation's currency: `12.50 EUR`. */
export const money = (recommendation: Recommendation, minor: number): string =>
  `${formatMajorUnits(minor, recommendation.currency)} ${recommendation.currency}`

/** A ratio as a percentage with one decimal, or a dash. */
export const percent = (ratio: number | null): string => (ratio === null ? "—" : `${(ratio * 100).toFixed(1)} %`)

/** A status as words: `pending_approval` -> `pending approval`. */
export const statusWords = (status: string): string => status.replaceAll("_", " ")

/** An instant as UTC, to the minute. */
export const when = (at: number | null): string =>
  at === null ? "—" : `${toIso(at).slice(0, 16).replace("T", " ")} UTC`
