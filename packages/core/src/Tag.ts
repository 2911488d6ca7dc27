import { Schema } from "effect"

/** A catalog tag: trimmed, 1..64 characters, no separators used by imports (`;`, `,`). */
export const Tag = Schema.String.pipe(
  Schema.check(
    Schema.isPattern(/^[^\s;,](?:[^;,]{0,62}[^\s;,])?$/, {
      message: "a tag is 1 to 64 characters without ';' or ',' and not padded with spaces"
    })
  )
)
export type Tag = typeof Tag.Type
