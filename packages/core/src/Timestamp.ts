import { Schema } from "effect"

/**
 * Instants in the domain are epoch milliseconds: cheap to compare and to store,
 * and rendered as ISO 8601 only at the edges.
 */
export const Timestamp = Schema.Number.pipe(Schema.check(Schema.isInt()))
export type Timestamp = typeof Timestamp.Type

export const toIso = (at: Timestamp): string => new Date(at).toISOString()
