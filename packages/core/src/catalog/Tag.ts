import { Schema } from "effect"

/**
 * A catalog tag: trimmed, 1..64 characters, no separators used by imports (`;`, `,`) and no NUL
 * (PostgreSQL text cannot hold it: a tag with one would fail its query instead of its check).
 */
export const tagPattern = /^[^\s;,\0](?:[^;,\0]{0,62}[^\s;,\0])?$/

export const Tag = Schema.String.pipe(
  Schema.check(
    Schema.isPattern(tagPattern, {
      message: "a tag is 1 to 64 characters without ';', ',' or NUL and not padded with spaces"
    })
  )
)
export type Tag = typeof Tag.Type
