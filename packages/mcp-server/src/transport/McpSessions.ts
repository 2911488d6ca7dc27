import { budgetKey, type CallerShape } from "@margin/edge/auth"
import { mcpPath } from "@margin/edge/serving"
import { Clock, Context, Duration, Effect, Layer, Queue, Schedule } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { McpSettings, type SessionLimits } from "../McpSettings.ts"

/**
 * Set while this process ends a session itself (`McpSessions`) to the caller that opened it: the
 * DELETE it sends through the router is its own, so McpAuthentication lets it through as that
 * caller, without a token or a budget unit.
 */
export const SessionTermination = Context.Reference<CallerShape | undefined>("margin/mcp/SessionTermination", {
  defaultValue: () => undefined
})

export interface McpSessionsShape {
  /** Whether session `id` is live and was opened with `caller`'s token; if so, marks it used now. */
  readonly use: (id: string, caller: CallerShape) => Effect.Effect<boolean>
  /** `caller` opened session `id` (its initialize is being answered): ends what the limits then exceed. */
  readonly opened: (id: string, caller: CallerShape) => Effect.Effect<void>
  /** The client ended session `id` (DELETE). */
  readonly closed: (id: string) => Effect.Effect<void>
  /** How many sessions are live. */
  readonly live: Effect.Effect<number>
}

interface Entry {
  /** The caller's `budgetKey`: its token. */
  readonly owner: string
  readonly caller: CallerShape
  readonly lastUsed: number
}

/**
 * Which MCP sessions live, whose they are and when each was last used, with the limits of
 * `SessionLimits` applied: per token and in all (the least recently used ends first), and idle
 * time. Effect's MCP server keeps each session (with its initialize payload) until its DELETE;
 * this ends a session the way a client does, by sending that DELETE through the router (with
 * `SessionTermination` set), so Effect's own termination runs and frees it.
 *
 * Both maps keep insertion order as recency: a use moves the session to the end, so the first
 * entries are the least recently used and the idle ones.
 */
export const make = (limits: SessionLimits, router: HttpRouter.HttpRouter) =>
  Effect.gen(function* () {
    const sessions = new Map<string, Entry>()
    const byOwner = new Map<string, Set<string>>()
    const ending = yield* Queue.unbounded<Entry & { readonly id: string }>()

    const forget = (id: string) => {
      const entry = sessions.get(id)
      if (entry === undefined) return
      sessions.delete(id)
      const owned = byOwner.get(entry.owner)
      owned?.delete(id)
      if (owned?.size === 0) byOwner.delete(entry.owner)
    }

    const end = (id: string) => {
      const entry = sessions.get(id)
      if (entry === undefined) return
      forget(id)
      Queue.offerUnsafe(ending, { ...entry, id })
    }

    const remember = (id: string, caller: CallerShape, now: number) => {
      forget(id)
      const owner = budgetKey(caller)
      sessions.set(id, { owner, caller, lastUsed: now })
      const owned = byOwner.get(owner) ?? new Set<string>()
      owned.add(id)
      byOwner.set(owner, owned)
    }

    const endIdle = (now: number) => {
      for (const [id, entry] of sessions) {
        if (now - entry.lastUsed < limits.idleTimeoutMs) return
        end(id)
      }
    }

    const endBeyondLimits = (owner: string) => {
      const owned = byOwner.get(owner)
      while (owned !== undefined && owned.size > limits.perToken) {
        const oldest = owned.values().next()
        if (oldest.done === true) break
        end(oldest.value)
      }
      while (sessions.size > limits.total) {
        const oldest = sessions.keys().next()
        if (oldest.done === true) break
        end(oldest.value)
      }
    }

    const terminate = ({ id, caller }: { readonly id: string; readonly caller: CallerShape }) =>
      router
        .asHttpEffect()
        .pipe(
          Effect.provideService(
            HttpServerRequest.HttpServerRequest,
            HttpServerRequest.fromWeb(
              new Request(`http://localhost${mcpPath}`, { method: "DELETE", headers: { "mcp-session-id": id } })
            )
          ),
          Effect.provideService(SessionTermination, caller),
          Effect.scoped,
          Effect.ignore
        )

    yield* Queue.take(ending).pipe(Effect.flatMap(terminate), Effect.forever, Effect.forkScoped)
    const sweepEvery = Duration.millis(Math.min(60_000, Math.max(10, Math.floor(limits.idleTimeoutMs / 2))))
    yield* Clock.currentTimeMillis.pipe(
      Effect.map(endIdle),
      Effect.repeat(Schedule.spaced(sweepEvery)),
      Effect.forkScoped
    )

    return {
      use: (id, caller) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          endIdle(now)
          const entry = sessions.get(id)
          if (entry === undefined || entry.owner !== budgetKey(caller)) return false
          remember(id, caller, now)
          return true
        }),
      opened: (id, caller) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          endIdle(now)
          remember(id, caller, now)
          endBeyondLimits(budgetKey(caller))
        }),
      closed: (id) => Effect.sync(() => forget(id)),
      live: Effect.sync(() => sessions.size)
    } satisfies McpSessionsShape
  })

/** The live MCP sessions of this process (`make`). */
export class McpSessions extends Context.Service<McpSessions, McpSessionsShape>()("margin/mcp/McpSessions") {
  /** On the router the MCP routes are mounted on, with `McpSettings`' session limits. */
  static readonly layer: Layer.Layer<McpSessions, never, McpSettings | HttpRouter.HttpRouter> = Layer.effect(
    McpSessions,
    Effect.gen(function* () {
      const settings = yield* McpSettings
      return McpSessions.of(yield* make(settings.sessions, yield* HttpRouter.HttpRouter))
    })
  )
}
