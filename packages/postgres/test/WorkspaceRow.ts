import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** The columns of a workspaces row, camelCase as the client's name transforms take them. */
export type WorkspaceRow = {
  readonly id: string
  readonly name: string
  readonly plan: string
  readonly lifecycleState: string
  readonly targetMargin: number
  readonly minMargin: number
  readonly maxChangePct: number
  readonly rounding: string
  readonly threshold: number
}

/** Inserts a valid workspace row straight into the table (schema tests, probe processes); `fields` override it. */
export const insertWorkspace = (id: string, fields: Partial<WorkspaceRow> = {}) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const row: WorkspaceRow = {
      id,
      name: `Workspace ${id}`,
      plan: "max",
      lifecycleState: "active",
      targetMargin: 0.35,
      minMargin: 0.15,
      maxChangePct: 0.1,
      rounding: "99",
      threshold: 0.01,
      ...fields
    }
    yield* sql`INSERT INTO workspaces ${sql.insert(row)}`
  })
