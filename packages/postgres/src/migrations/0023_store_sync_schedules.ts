import { runStatements } from "./runStatements.ts"

/**
 * Syncs of a workspace's store on demand and on schedule (docs/stores.md, "Syncs on demand and on
 * schedule"): each workspace's schedule, and the syncs asked for or due with the workers' claims on
 * them. A scheduled sync names its slot, and a workspace has one sync per slot (the unique key): of
 * several workers queueing the same slot, one inserts it.
 */
export const statements: ReadonlyArray<string> = [
  `CREATE TABLE sync_schedules (
    workspace_id text COLLATE "C" PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    cadence text NOT NULL CHECK (cadence IN ('off', 'daily', 'weekly')),
    weekday text CHECK (weekday IN ('monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday')),
    hour integer NOT NULL CHECK (hour BETWEEN 0 AND 23),
    time_zone text NOT NULL,
    run_after_sync boolean NOT NULL,
    updated_at timestamptz NOT NULL,
    updated_by text NOT NULL,
    CHECK ((cadence = 'weekly') = (weekday IS NOT NULL))
  )`,
  `CREATE INDEX sync_schedules_active ON sync_schedules (workspace_id) WHERE cadence <> 'off'`,
  `CREATE TABLE store_syncs (
    id text COLLATE "C" PRIMARY KEY,
    workspace_id text COLLATE "C" NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    trigger text NOT NULL CHECK (trigger IN ('manual', 'schedule')),
    slot_at timestamptz,
    run_after_sync boolean NOT NULL,
    status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
    actor jsonb NOT NULL CHECK (jsonb_typeof(actor) = 'object'),
    created_at timestamptz NOT NULL,
    started_at timestamptz,
    finished_at timestamptz,
    attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    report jsonb CHECK (report IS NULL OR jsonb_typeof(report) = 'object'),
    error text,
    run_id text COLLATE "C",
    run_refused text,
    lease_owner text,
    lease_expires_at timestamptz,
    UNIQUE (workspace_id, slot_at)
  )`,
  `CREATE INDEX store_syncs_by_workspace ON store_syncs (workspace_id, created_at, id)`,
  `CREATE INDEX store_syncs_unfinished ON store_syncs (created_at, id) WHERE status IN ('queued', 'running')`
]

export default runStatements(statements)
