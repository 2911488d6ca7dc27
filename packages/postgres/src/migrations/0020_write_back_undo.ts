import { runStatements } from "./runStatements.ts"

/**
 * The undo of an applied price change (docs/console.md, "What changed"): a second write-back of the
 * same recommendation, marked with the write-back it reverses and who asked. A recommendation keeps
 * one approval row (the unique key becomes partial) and a write-back at most one undo row.
 */
export const statements: ReadonlyArray<string> = [
  `ALTER TABLE write_backs
    ADD COLUMN undo_of text COLLATE "C" REFERENCES write_backs (id),
    ADD COLUMN undone_by text,
    ADD CONSTRAINT write_backs_undo_check CHECK ((undo_of IS NULL) = (undone_by IS NULL))`,
  `ALTER TABLE write_backs DROP CONSTRAINT write_backs_recommendation_id_key`,
  `CREATE UNIQUE INDEX write_backs_approval_key ON write_backs (recommendation_id) WHERE undo_of IS NULL`,
  `CREATE UNIQUE INDEX write_backs_undo_key ON write_backs (undo_of) WHERE undo_of IS NOT NULL`,
  // The page of price changes: a workspace's approvals, newest first.
  `CREATE INDEX write_backs_approvals_idx ON write_backs (workspace_id, created_at DESC, id DESC) WHERE undo_of IS NULL`
]

export default runStatements(statements)
