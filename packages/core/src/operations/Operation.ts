import { type Context, Effect, type Schema } from "effect"
import type { VariantSchema } from "effect/schema"
import type { Role } from "../access/Role.ts"
import type { Scope } from "../access/Scope.ts"
import type { InputFields, InputOf, OperationBinding, OperationCaller, OperationInput } from "./OperationInput.ts"

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

/** What an entry says about an operation, before its input and binding. */
export interface OperationFacts {
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

/** Any declared input (the base of every entry's own, narrower one). */
export interface AnyInput {
  readonly path: InputFields
  readonly query: VariantSchema.Struct.Any
  readonly body: Schema.Top
  readonly headers: Schema.Top
  readonly bodyMayBeAbsent?: boolean
}

/**
 * One operation of the service, as every front door offers it: the facts REST and MCP take from
 * here rather than each declaring them, its input (decoded alike at every door) and its binding to
 * the use case (OperationCatalogue.ts lists them all). The probes have neither: no door but REST's
 * serves them, and they read no use case.
 */
export interface Operation extends OperationFacts {
  readonly input: AnyInput | null
  readonly binding: Effect.Effect<
    (input: never, caller: OperationCaller) => Effect.Effect<unknown, unknown>,
    never,
    unknown
  > | null
}

/**
 * An entry: its facts (their literal types kept: the id, method and path type the REST endpoint
 * built from it), its input, and its binding, whose input is typed by the declaration.
 */
export const defineOperation = <
  const F extends OperationFacts,
  const Path extends InputFields,
  const Query extends VariantSchema.Struct.Fields,
  A,
  E,
  R,
  const Body extends InputFields,
  const Headers extends InputFields
>(
  facts: F,
  input: OperationInput<Path, Query, Body, Headers>,
  binding: OperationBinding<InputOf<Path, Query, Body, Headers>, A, E, R>
): F & {
  readonly input: OperationInput<Path, Query, Body, Headers>
  readonly binding: OperationBinding<InputOf<Path, Query, Body, Headers>, A, E, R>
} => ({
  ...facts,
  input,
  binding
})

/** A probe of the orchestrator: no input, no use case. */
export const defineProbe = <const F extends OperationFacts>(
  facts: F
): F & { readonly input: null; readonly binding: null } => ({
  ...facts,
  input: null,
  binding: null
})

/** An operation's binding on one service: `bindTo(Service, (service) => (input, caller) => ...)`. */
export const bindTo = <I, S, Handler>(
  service: Context.Key<I, S>,
  bind: (service: S) => Handler
): Effect.Effect<Handler, never, I> => Effect.map(Effect.service(service), bind)

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
