import type { Redacted } from "effect"

/** Where the service is and who calls it. */
export interface ClientConfig {
  /** The service's origin, `https://margin.example.com` (the paths carry `/api/v1`). */
  readonly baseUrl: string
  /** An API token (`pck_...`), or a first-party session JWT (approve, reject, workspace status only). */
  readonly token: string | Redacted.Redacted<string>
  /** Sent as `x-workspace-id`: a session user of several workspaces names one; a token may name its own. */
  readonly workspaceId?: string
  /**
   * How many times a repeatable call (a read, an idempotent command, a run trigger with its
   * idempotency key) is sent again after a 429, a 503, a 502/504 without the envelope, a broken
   * connection or a timeout. Default 2; 0 turns retries off.
   */
  readonly maxRetries?: number
  /** Milliseconds one attempt may take before it fails with `TimeoutError` (default 60000). */
  readonly timeout?: number
  /** The `fetch` to send with (default the platform's): a proxy agent, a test double, a tracing wrapper. */
  readonly fetch?: typeof globalThis.fetch
}

export const defaultMaxRetries = 2
export const defaultTimeoutMillis = 60_000
