import type { Role } from "../Role.ts"
import type { Scope } from "../Scope.ts"

/** A credential an operation accepts: a workspace API token (`pck_…`) or a first-party session JWT. */
export type Credential = "token" | "session"

/**
 * What calling an operation again with the same arguments does; both front doors tell it, each in
 * its own shape (REST `{ ok, idempotent }`, MCP the object as it now is with `idempotent: true`).
 * - `read`: nothing changes, however often.
 * - `idempotent`: a command that has already taken effect answers `idempotent: true` and changes nothing.
 * - `conflict`: a second call is a conflict (409 `conflict`): the state it leaves accepts no repeat.
 * - `new`: each call does it again (each run trigger queues a new run).
 */
export type Repeat = "read" | "idempotent" | "conflict" | "new"

/** Who may call an operation. */
export interface OperationAccess {
  readonly scope: Scope
  /** Every operation takes an API token; a few take a first-party session JWT too. */
  readonly credentials: readonly ["token"] | readonly ["token", "session"]
  /** The least workspace role, applied by the use case (`Role.ts`); null when any member may. */
  readonly role: Role | null
}

/** The operation's REST route; `path` in the router's syntax (`:name` for a path parameter). */
export interface RestRoute {
  readonly method: "GET" | "POST"
  readonly path: `/${string}`
  /** The REST reader's description (its body, its status codes, its repeat shape). */
  readonly description: string
}

/** The operation's MCP tool. */
export interface McpTool {
  readonly name: string
  /** The agent's description (its arguments, paging, its repeat shape). */
  readonly description: string
  /** It may change or end something for good (a terminal status, a live store price). */
  readonly destructive: boolean
  /** It reaches outside this service (the merchant's store). */
  readonly openWorld: boolean
}

/** The groups operations are listed in (REST tags); `system` holds the orchestrator's probes. */
export type OperationGroup = "runs" | "recommendations" | "alerts" | "catalog" | "reports" | "workspace" | "system"

/**
 * One operation of the service, as every front door offers it: the facts REST and MCP take from
 * here rather than each declaring them (OperationCatalogue.ts lists them all).
 */
export interface Operation {
  /** The REST endpoint's name (its OpenAPI operationId ends with it). */
  readonly id: string
  readonly group: OperationGroup
  /** A few words: the OpenAPI summary and the MCP tool's title. */
  readonly summary: string
  /** null: anyone, without a credential (the probes). */
  readonly access: OperationAccess | null
  readonly repeat: Repeat
  readonly rest: RestRoute | null
  readonly mcp: McpTool | null
}

/** Keeps an entry's literal types (its id, method and path type the REST endpoint built from it). */
export const defineOperation = <const O extends Operation>(entry: O): O => entry

/** An operation that asks for a credential: every one but the probes. */
export type GuardedOperation = Operation & { readonly access: OperationAccess }

export const isGuarded = (entry: Operation): entry is GuardedOperation => entry.access !== null

/** A command changes something; mutations refuse a token whose issuing user was deleted (token_unusable). */
export const isMutation = (entry: Operation): boolean => entry.repeat !== "read"

/** Whether a first-party session JWT may call it. */
export const acceptsSession = (entry: Operation): boolean =>
  entry.access?.credentials.some((credential) => credential === "session") ?? false

/** Whether the same call again leaves the world as the first left it (MCP's idempotent hint). */
export const isIdempotent = (entry: Operation): boolean => entry.repeat === "read" || entry.repeat === "idempotent"
