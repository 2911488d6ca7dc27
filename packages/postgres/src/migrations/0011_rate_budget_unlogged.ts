import { runStatements } from "./runStatements.ts"

/**
 * The rate budget's counters skip the write-ahead log. Every authenticated request upserts one of
 * them, and as a logged table each upsert was a WAL record and a commit that waited for the WAL to
 * reach the disk: a flush per request spent on a number that matters for at most a minute.
 * Unlogged, a commit that touched only this table does not wait for a flush. What is given up: after
 * a crash of PostgreSQL (not a clean restart) and on a promoted standby, the table starts empty,
 * so every budget starts its current window again (docs/operations.md, Rate budget).
 */
export const statements: ReadonlyArray<string> = ["ALTER TABLE rate_budget_windows SET UNLOGGED"]

export default runStatements(statements)
