import { Tag } from "@margin/core/Tag"
import { toIso } from "@margin/core/Timestamp"
import { Effect, Schema, SchemaIssue, SchemaTransformation } from "effect"

/** Request bodies. Unknown fields are ignored (v1 may add optional ones); known ones are checked. */

const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]00:?00)$/i

const parseUtc = (text: string): number | null => {
  if (!isoUtc.test(text)) return null
  const at = Date.parse(text)
  // Date.parse rolls 2026-02-30 over to March: compare the calendar date it read with the text's.
  return Number.isFinite(at) && new Date(at).toISOString().slice(0, 10) === text.slice(0, 10) ? at : null
}

/** An ISO 8601 instant in UTC (`Z` or `+00:00`), as epoch milliseconds. */
export const UtcTimestamp = Schema.String.pipe(
  Schema.decodeTo(
    Schema.Number,
    SchemaTransformation.transformEffect({
      decode: (text: string) => {
        const at = parseUtc(text)
        return at === null
          ? Effect.fail(
              new SchemaIssue.InvalidValue(
                { message: "expected an ISO 8601 timestamp in UTC, like 2026-01-31T09:30:00Z" },
                text
              )
            )
          : Effect.succeed(at)
      },
      encode: (at: number) => Effect.succeed(toIso(at))
    })
  )
).annotate({ format: "date-time", description: "ISO 8601 in UTC" })

/**
 * Text that may reach a query holds no NUL: PostgreSQL text cannot, and the database would refuse
 * the query (a 503) where the client is owed a 422.
 */
export const nulMessage = "must not contain the NUL character"

export const isWithoutNul = Schema.isPattern(/^[^\0]*$/, { message: nulMessage })

const Reason = Schema.String.pipe(Schema.check(Schema.isMaxLength(1000), isWithoutNul))

export const TriggerRunBody = Schema.Struct({
  /** Run over the items carrying any of these tags; omitted or empty: the whole catalog. */
  subset_tags: Schema.optionalKey(Schema.Array(Tag).pipe(Schema.check(Schema.isMaxLength(100))))
}).annotate({ identifier: "TriggerRun" })

export const RejectBody = Schema.Struct({ reason: Reason }).annotate({ identifier: "RejectRecommendation" })

export const SnoozeBody = Schema.Struct({
  /** When the alert opens again; must lie in the future. */
  snooze_until: UtcTimestamp,
  reason: Reason
}).annotate({ identifier: "SnoozeAlert" })
