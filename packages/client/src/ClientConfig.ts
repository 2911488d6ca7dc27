import type { Redacted } from "effect"

/** Where the service is and who calls it. */
export interface ClientConfig {
  /** The service's origin, `https://margin.example.com` (the paths carry `/api/v1`). */
  readonly baseUrl: string
  /** An API token (`pck_...`), or a first-party session JWT (approve, reject, workspace status only). */
  readonly token: string | Redacted.Redacted<string>
  /** Sent as `x-workspace-id`: a session user of several workspaces names one; a token may name its own. */
  readonly workspaceId?: string
}
