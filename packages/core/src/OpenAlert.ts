import type { Alert } from "./Alert.ts"
import type { AlertFinding } from "./AlertFinding.ts"
import { AlertId, type CatalogItemId, type RunId, type WorkspaceId } from "./Ids.ts"

/** Where a finding was made: which workspace, run (null outside a run) and item. */
export interface AlertOrigin {
  readonly workspaceId: WorkspaceId
  readonly runId: RunId | null
  readonly itemId: CatalogItemId | null
}

/** A new, open alert for a finding; `raiseMany` drops it when one of the same (item, kind) is still open. */
export const openAlert = (id: string, origin: AlertOrigin, finding: AlertFinding, now: number): Alert => ({
  id: AlertId.make(id),
  workspaceId: origin.workspaceId,
  runId: origin.runId,
  itemId: origin.itemId,
  kind: finding.kind,
  severity: finding.severity,
  message: finding.message,
  status: "open",
  snoozedUntil: null,
  snoozeReason: null,
  resolvedAt: null,
  dismissedAt: null,
  version: 0,
  createdAt: now,
  updatedAt: now
})
