import { runStatements } from "./runStatements.ts"

/**
 * A deprecation notice is claimed before it is sent (`claimed_until`, a lease), then marked sent
 * (`notified_at`). Two `marginctl deprecation notify` runs of one operation at once no longer both
 * send to the same person: the second finds the first's live claim and skips it. A run that dies
 * between its claim and the send leaves a claim that lapses, and the next run sends that notice.
 */
export const statements: ReadonlyArray<string> = [
  "ALTER TABLE deprecation_notices ALTER COLUMN notified_at DROP NOT NULL",
  "ALTER TABLE deprecation_notices ADD COLUMN claimed_until timestamptz",
  `ALTER TABLE deprecation_notices ADD CONSTRAINT deprecation_notices_sent_or_claimed
    CHECK (notified_at IS NOT NULL OR claimed_until IS NOT NULL)`
]

export default runStatements(statements)
