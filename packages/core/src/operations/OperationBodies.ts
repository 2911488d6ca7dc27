import { Effect, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { Tag } from "../catalog/Tag.ts"
import { toIso } from "../kernel/Timestamp.ts"
import { isWithoutNul } from "./OperationInput.ts"

/**
 * The bodies of the operations that take one (a REST request body; MCP arguments beside the
 * others). Unknown fields are ignored (v1 may add optional ones); known ones are checked.
 */

const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]00:?00)$/i

const parseUtc = (text: string): number | null => {
  if (!isoUtc.test(text)) return null
  const at = Date.parse(text)
  // Date.parse rolls 2026-02-30 over to March: compare the calendar date it read with the text's.
  return Number.isFinite(at) && new Date(at).toISOString().slice(0, 10) === text.slice(0, 10) ? at : null
}

/**
 * An ISO 8601 instant in UTC (`Z` or `+00:00`), as epoch milliseconds. Described on the text too:
 * JSON Schema (an MCP tool's arguments) shows the text a caller sends.
 */
export const UtcTimestamp = Schema.String.annotate({ description: "ISO 8601 in UTC" })
  .pipe(
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
  )
  .annotate({ format: "date-time", description: "ISO 8601 in UTC" })

const Reason = Schema.String.pipe(Schema.check(Schema.isMaxLength(1000), isWithoutNul))

export const TriggerRunBody = Schema.Struct({
  subset_tags: Schema.optionalKey(
    Schema.Array(Tag)
      .pipe(Schema.check(Schema.isMaxLength(100)))
      .annotate({
        description: "run over the items carrying any of these tags (up to 100); omitted or empty: the whole catalog"
      })
  )
}).annotate({ identifier: "TriggerRun" })
export type TriggerRunBody = typeof TriggerRunBody.Type

export const RejectBody = Schema.Struct({
  reason: Reason.annotate({ description: "why the recommendation is rejected, up to 1000 characters" })
}).annotate({ identifier: "RejectRecommendation" })
export type RejectBody = typeof RejectBody.Type

export const SnoozeBody = Schema.Struct({
  /** When the alert opens again; must lie in the future. */
  snooze_until: UtcTimestamp,
  reason: Reason.annotate({ description: "why the alert is snoozed, up to 1000 characters" })
}).annotate({ identifier: "SnoozeAlert" })
export type SnoozeBody = typeof SnoozeBody.Type
