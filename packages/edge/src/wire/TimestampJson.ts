import { toIso } from "@margin/core/kernel/Timestamp"
import { Schema } from "effect"

/** Timestamps on the wire: ISO 8601 in UTC (`2026-01-31T09:30:00.000Z`). */
export const IsoTimestamp = Schema.String.annotate({ format: "date-time" })

export const isoOrNull = (at: number | null): string | null => (at === null ? null : toIso(at))
