import { runStatements } from "./runStatements.ts"

/** When each OAuth grant was last used (the console's connected apps show it), to the minute. */
export const statements: ReadonlyArray<string> = [`ALTER TABLE oauth_grants ADD COLUMN last_used_at timestamptz`]

export default runStatements(statements)
