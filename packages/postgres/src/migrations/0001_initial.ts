import { runStatements } from "./runStatements.ts"

/**
 * The whole schema of v1: a table for every entity of the service (docs/repositories.md).
 *
 * - Every table carries workspace_id except the platform-level ones: users, deletion_requests
 *   (a user's, across workspaces), rate_budget_windows (keyed by token / user) and identity_keys.
 * - Ids are text compared byte-wise (COLLATE "C"), so that ORDER BY id matches the string
 *   order the domain uses to break ties in cursors.
 * - Lists are newest first with the cursor (created_at, id): every list has an index that
 *   starts with its filter and ends with (created_at DESC, id DESC).
 * - Money is bigint minor units; ratios (margins, policy fractions) are double precision.
 * - Instants are timestamptz; the defaults are truncated to milliseconds, the precision of
 *   the domain's epoch-millisecond timestamps and of the cursors.
 * - Every enum is a CHECK on the values the core defines; adding a value is a migration.
 * Runs on PostgreSQL 15 and later (NULLS NOT DISTINCT) and on the embedded PostgreSQL 18.
 */
const now = `date_trunc('milliseconds', now())`
const id = `text COLLATE "C"`
const within = (column: string, values: ReadonlyArray<string>) =>
  `CHECK (${column} IN (${values.map((value) => `'${value}'`).join(", ")}))`
const currency = (column: string) => `CHECK (${column} ~ '^[A-Z]{3}$')`

export const statements: ReadonlyArray<string> = [
  `CREATE TABLE workspaces (
    id ${id} PRIMARY KEY,
    name text NOT NULL CHECK (name <> ''),
    plan text NOT NULL CONSTRAINT workspaces_plan_check ${within("plan", ["free", "pro", "max", "enterprise"])},
    lifecycle_state text NOT NULL
      CONSTRAINT workspaces_lifecycle_state_check ${within("lifecycle_state", ["trial", "active", "suspended"])},
    target_margin double precision NOT NULL CHECK (target_margin >= 0 AND target_margin < 1),
    min_margin double precision NOT NULL CHECK (min_margin >= 0 AND min_margin < 1),
    max_change_pct double precision NOT NULL CHECK (max_change_pct > 0),
    rounding text NOT NULL CONSTRAINT workspaces_rounding_check ${within("rounding", ["none", "99", "95", "49_99", "whole"])},
    threshold double precision NOT NULL CHECK (threshold >= 0 AND threshold < 1),
    trial_ends_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT ${now},
    CONSTRAINT workspaces_min_margin_below_target CHECK (min_margin <= target_margin)
  )`,
  `CREATE INDEX workspaces_name_idx ON workspaces (name)`,

  `CREATE TABLE users (
    id ${id} PRIMARY KEY,
    email text NOT NULL CHECK (email LIKE '%_@_%'),
    email_confirmed boolean NOT NULL DEFAULT false,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT ${now}
  )`,
  // E-mail addresses are compared without case, as the domain does.
  `CREATE UNIQUE INDEX users_email_key ON users (lower(email))`,

  `CREATE TABLE memberships (
    workspace_id ${id} NOT NULL REFERENCES workspaces (id),
    user_id ${id} NOT NULL REFERENCES users (id),
    role text NOT NULL CONSTRAINT memberships_role_check ${within("role", ["viewer", "analyst", "approver", "admin", "owner"])},
    created_at timestamptz NOT NULL DEFAULT ${now},
    PRIMARY KEY (workspace_id, user_id)
  )`,
  `CREATE INDEX memberships_user_idx ON memberships (user_id)`,

  `CREATE TABLE api_tokens (
    id ${id} PRIMARY KEY,
    workspace_id ${id} NOT NULL REFERENCES workspaces (id),
    issued_by ${id} NOT NULL REFERENCES users (id),
    name text NOT NULL,
    -- hex SHA-256 of the whole pck_ secret; the secret itself is never stored
    secret_hash text NOT NULL UNIQUE CHECK (secret_hash ~ '^[0-9a-f]{64}$'),
    scopes text[] NOT NULL CONSTRAINT api_tokens_scopes_check CHECK (scopes <@ ARRAY[
      'runs:read', 'runs:trigger', 'recommendations:read', 'recommendations:write', 'recommendations:approve',
      'alerts:read', 'alerts:write', 'catalog:read', 'reports:read', 'workspace:read'
    ]::text[]),
    created_at timestamptz NOT NULL DEFAULT ${now},
    expires_at timestamptz,
    revoked_at timestamptz,
    last_used_at timestamptz
  )`,
  `CREATE INDEX api_tokens_workspace_idx ON api_tokens (workspace_id, created_at DESC, id DESC)`,
  `CREATE INDEX api_tokens_issued_by_idx ON api_tokens (issued_by)`,

  `CREATE TABLE store_connections (
    workspace_id ${id} PRIMARY KEY REFERENCES workspaces (id),
    platform text NOT NULL CONSTRAINT store_connections_platform_check ${within("platform", ["sandbox", "shopify"])},
    shop text,
    -- sealed by the adapter (AES-GCM); never read back by core, never logged
    encrypted_credentials bytea,
    status text NOT NULL CONSTRAINT store_connections_status_check ${within("status", ["connected", "disconnected"])},
    connected_at timestamptz NOT NULL DEFAULT ${now},
    disconnected_at timestamptz,
    CONSTRAINT store_connections_shopify_shop CHECK (platform <> 'shopify' OR shop IS NOT NULL)
  )`,

  // The simulated store of the sandbox platform: its variants and every write it accepted.
  `CREATE TABLE sandbox_store_variants (
    workspace_id ${id} NOT NULL REFERENCES workspaces (id),
    variant_ref text NOT NULL,
    price bigint NOT NULL CHECK (price >= 0),
    currency text NOT NULL ${currency("currency")},
    updated_at timestamptz NOT NULL DEFAULT ${now},
    PRIMARY KEY (workspace_id, variant_ref)
  )`,
  `CREATE TABLE sandbox_store_writes (
    id ${id} PRIMARY KEY DEFAULT ('sbw_' || replace(gen_random_uuid()::text, '-', '')),
    workspace_id ${id} NOT NULL,
    variant_ref text NOT NULL,
    old_price bigint NOT NULL CHECK (old_price >= 0),
    new_price bigint NOT NULL CHECK (new_price >= 0),
    idempotency_key text NOT NULL,
    written_at timestamptz NOT NULL DEFAULT ${now},
    FOREIGN KEY (workspace_id, variant_ref) REFERENCES sandbox_store_variants (workspace_id, variant_ref)
  )`,
  `CREATE INDEX sandbox_store_writes_workspace_idx ON sandbox_store_writes (workspace_id, written_at, id)`,
  `CREATE INDEX sandbox_store_writes_idempotency_idx ON sandbox_store_writes (idempotency_key)`,

  `CREATE TABLE catalog_items (
    id ${id} PRIMARY KEY,
    workspace_id ${id} NOT NULL REFERENCES workspaces (id),
    sku text NOT NULL CHECK (length(sku) BETWEEN 1 AND 128),
    title text NOT NULL,
    tags text[] NOT NULL DEFAULT '{}',
    currency text NOT NULL ${currency("currency")},
    price bigint NOT NULL CHECK (price >= 0),
    cost bigint CHECK (cost >= 0),
    compare_at_price bigint CHECK (compare_at_price >= 0),
    min_price bigint CHECK (min_price >= 0),
    max_price bigint CHECK (max_price >= 0),
    inventory integer,
    units_sold_30d integer NOT NULL DEFAULT 0 CHECK (units_sold_30d >= 0),
    store_product_ref text,
    store_variant_ref text,
    -- the cost the last run saw: the next run raises cost_changed against it
    analysed_cost bigint CHECK (analysed_cost >= 0),
    price_history jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(price_history) = 'array'),
    created_at timestamptz NOT NULL DEFAULT ${now},
    updated_at timestamptz NOT NULL DEFAULT ${now},
    CONSTRAINT catalog_items_workspace_sku_key UNIQUE (workspace_id, sku)
  )`,
  `CREATE INDEX catalog_items_list_idx ON catalog_items (workspace_id, created_at DESC, id DESC)`,
  // Runs read a workspace's items in id order, chunk by chunk.
  `CREATE INDEX catalog_items_run_idx ON catalog_items (workspace_id, id)`,
  `CREATE INDEX catalog_items_tags_idx ON catalog_items USING gin (tags)`,

  `CREATE TABLE runs (
    id ${id} PRIMARY KEY,
    workspace_id ${id} NOT NULL REFERENCES workspaces (id),
    status text NOT NULL
      CONSTRAINT runs_status_check ${within("status", ["queued", "running", "succeeded", "failed", "cancelled"])},
    subset_tags text[] NOT NULL DEFAULT '{}',
    trigger text NOT NULL CONSTRAINT runs_trigger_check ${within("trigger", ["api", "mcp", "schedule", "cli"])},
    requested_by text,
    items_total integer CHECK (items_total >= 0),
    items_analysed integer NOT NULL DEFAULT 0 CHECK (items_analysed >= 0),
    recommendations_count integer NOT NULL DEFAULT 0 CHECK (recommendations_count >= 0),
    alerts_count integer NOT NULL DEFAULT 0 CHECK (alerts_count >= 0),
    error text,
    version integer NOT NULL DEFAULT 0,
    lease_owner text,
    lease_expires_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT ${now},
    started_at timestamptz,
    finished_at timestamptz
  )`,
  `CREATE INDEX runs_list_idx ON runs (workspace_id, created_at DESC, id DESC)`,
  `CREATE INDEX runs_status_idx ON runs (workspace_id, status, created_at DESC, id DESC)`,
  // Workers claim the oldest queued run, or a running one whose lease expired.
  `CREATE INDEX runs_claim_idx ON runs (created_at, id) WHERE status IN ('queued', 'running')`,

  `CREATE TABLE recommendations (
    id ${id} PRIMARY KEY,
    workspace_id ${id} NOT NULL REFERENCES workspaces (id),
    run_id ${id} NOT NULL REFERENCES runs (id),
    item_id ${id} NOT NULL REFERENCES catalog_items (id),
    sku text NOT NULL,
    currency text NOT NULL ${currency("currency")},
    current_price bigint NOT NULL CHECK (current_price >= 0),
    recommended_price bigint NOT NULL CHECK (recommended_price >= 0),
    current_margin double precision,
    projected_margin double precision,
    rule text NOT NULL CONSTRAINT recommendations_rule_check ${within("rule", [
      "floor_exceeds_step",
      "ceiling_exceeds_step",
      "step_limited",
      "below_floor",
      "above_ceiling",
      "below_target_margin",
      "above_target_margin"
    ])},
    explanation text NOT NULL,
    elasticity double precision NOT NULL DEFAULT 0,
    elasticity_source text NOT NULL
      CONSTRAINT recommendations_elasticity_source_check ${within("elasticity_source", ["assumed_zero", "arc", "log_log"])},
    elasticity_sample_size integer NOT NULL DEFAULT 0 CHECK (elasticity_sample_size >= 0),
    expected_monthly_impact bigint NOT NULL,
    status text NOT NULL CONSTRAINT recommendations_status_check ${within("status", [
      "new",
      "pending_approval",
      "approved",
      "applied",
      "write_back_failed",
      "rejected",
      "dismissed",
      "superseded"
    ])},
    accepted_at timestamptz,
    accepted_by text,
    approved_at timestamptz,
    decided_by text,
    decided_at timestamptz,
    reject_reason text,
    dismissed_at timestamptz,
    superseded_by_run_id ${id} REFERENCES runs (id),
    version integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT ${now},
    updated_at timestamptz NOT NULL DEFAULT ${now},
    -- a re-executed run cannot recommend twice for one item
    CONSTRAINT recommendations_run_item_key UNIQUE (run_id, item_id)
  )`,
  `CREATE INDEX recommendations_list_idx ON recommendations (workspace_id, created_at DESC, id DESC)`,
  `CREATE INDEX recommendations_status_idx ON recommendations (workspace_id, status, created_at DESC, id DESC)`,
  `CREATE INDEX recommendations_run_idx ON recommendations (workspace_id, run_id, created_at DESC, id DESC)`,
  // A newer run supersedes the open recommendations of its items.
  `CREATE INDEX recommendations_open_item_idx ON recommendations (workspace_id, item_id)
    WHERE status IN ('new', 'pending_approval')`,

  `CREATE TABLE alerts (
    id ${id} PRIMARY KEY,
    workspace_id ${id} NOT NULL REFERENCES workspaces (id),
    run_id ${id} REFERENCES runs (id),
    item_id ${id} REFERENCES catalog_items (id),
    kind text NOT NULL CONSTRAINT alerts_kind_check ${within("kind", [
      "negative_margin",
      "below_floor",
      "missing_cost",
      "cost_changed",
      "price_drift",
      "floor_above_ceiling",
      "write_back_failed"
    ])},
    severity text NOT NULL CONSTRAINT alerts_severity_check ${within("severity", ["info", "warning", "critical"])},
    message text NOT NULL,
    status text NOT NULL CONSTRAINT alerts_status_check ${within("status", ["open", "snoozed", "resolved", "dismissed"])},
    snoozed_until timestamptz,
    snooze_reason text,
    resolved_at timestamptz,
    dismissed_at timestamptz,
    version integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT ${now},
    updated_at timestamptz NOT NULL DEFAULT ${now},
    CONSTRAINT alerts_snoozed_until CHECK (status <> 'snoozed' OR snoozed_until IS NOT NULL)
  )`,
  `CREATE INDEX alerts_list_idx ON alerts (workspace_id, created_at DESC, id DESC)`,
  `CREATE INDEX alerts_status_idx ON alerts (workspace_id, status, created_at DESC, id DESC)`,
  `CREATE INDEX alerts_kind_idx ON alerts (workspace_id, kind, created_at DESC, id DESC)`,
  `CREATE INDEX alerts_item_idx ON alerts (workspace_id, item_id, created_at DESC, id DESC)`,
  // Dedupe: one standing (open or snoozed) alert per subject; an alert without an item is a subject too.
  `CREATE UNIQUE INDEX alerts_standing_subject_key ON alerts (workspace_id, item_id, kind) NULLS NOT DISTINCT
    WHERE status IN ('open', 'snoozed')`,

  `CREATE TABLE write_backs (
    id ${id} PRIMARY KEY,
    workspace_id ${id} NOT NULL REFERENCES workspaces (id),
    recommendation_id ${id} NOT NULL UNIQUE REFERENCES recommendations (id),
    idempotency_key text NOT NULL UNIQUE,
    payload jsonb NOT NULL CHECK (jsonb_typeof(payload) = 'object'),
    status text NOT NULL CONSTRAINT write_backs_status_check ${within("status", ["pending", "in_flight", "applied", "failed"])},
    attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at timestamptz NOT NULL DEFAULT ${now},
    last_error text,
    lease_owner text,
    lease_expires_at timestamptz,
    applied_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT ${now},
    updated_at timestamptz NOT NULL DEFAULT ${now}
  )`,
  // Delivery claims due pending rows and in-flight rows whose lease expired.
  `CREATE INDEX write_backs_due_idx ON write_backs (next_attempt_at) WHERE status = 'pending'`,
  `CREATE INDEX write_backs_lease_idx ON write_backs (lease_expires_at) WHERE status = 'in_flight'`,
  `CREATE INDEX write_backs_workspace_idx ON write_backs (workspace_id, created_at DESC, id DESC)`,

  `CREATE TABLE audit_events (
    id ${id} PRIMARY KEY,
    workspace_id ${id} NOT NULL REFERENCES workspaces (id),
    actor text NOT NULL,
    action text NOT NULL,
    resource_type text NOT NULL,
    resource_id text NOT NULL,
    before_status text,
    after_status text,
    at timestamptz NOT NULL DEFAULT ${now}
  )`,
  `CREATE INDEX audit_events_list_idx ON audit_events (workspace_id, at DESC, id DESC)`,
  `CREATE INDEX audit_events_resource_idx ON audit_events (workspace_id, resource_type, resource_id, at DESC)`,

  `CREATE TABLE support_sessions (
    id ${id} PRIMARY KEY,
    workspace_id ${id} NOT NULL REFERENCES workspaces (id),
    admin_email text NOT NULL,
    started_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    closed_at timestamptz,
    -- secrets of the session: never in an API response, never logged
    consent_code_hash text,
    encrypted_token bytea,
    CONSTRAINT support_sessions_expiry CHECK (expires_at > started_at)
  )`,
  `CREATE INDEX support_sessions_open_idx ON support_sessions (workspace_id, expires_at) WHERE closed_at IS NULL`,

  `CREATE TABLE deletion_requests (
    id ${id} PRIMARY KEY,
    user_id ${id} NOT NULL REFERENCES users (id),
    state text NOT NULL CONSTRAINT deletion_requests_state_check ${within("state", ["pending", "blocked", "done", "cancelled"])},
    scheduled_at timestamptz NOT NULL,
    effective_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT ${now},
    updated_at timestamptz NOT NULL DEFAULT ${now}
  )`,
  // A user has at most one active (pending or blocked) request.
  `CREATE UNIQUE INDEX deletion_requests_active_key ON deletion_requests (user_id) WHERE state IN ('pending', 'blocked')`,

  // The shared fixed-window rate budget: one counter per key and window, across processes.
  `CREATE TABLE rate_budget_windows (
    key text NOT NULL,
    window_start timestamptz NOT NULL,
    count integer NOT NULL CHECK (count >= 0),
    PRIMARY KEY (key, window_start)
  )`,
  `CREATE INDEX rate_budget_windows_start_idx ON rate_budget_windows (window_start)`,

  // The development session-JWT key pair; at most one is active.
  `CREATE TABLE identity_keys (
    kid text PRIMARY KEY,
    algorithm text NOT NULL CONSTRAINT identity_keys_algorithm_check ${within("algorithm", ["ES256"])},
    public_jwk jsonb NOT NULL,
    private_jwk jsonb NOT NULL,
    active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT ${now}
  )`,
  `CREATE UNIQUE INDEX identity_keys_active_key ON identity_keys (active) WHERE active`
]

export default runStatements(statements)
