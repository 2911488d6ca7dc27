import * as NodeSocketServer from "@effect/platform-node/NodeSocketServer"
import type { PGlite } from "@electric-sql/pglite"
import { Effect, type Scope, Semaphore } from "effect"
import * as Socket from "effect/socket/Socket"
import type * as SocketServer from "effect/socket/SocketServer"
import { DatabaseUnavailable } from "./DatabaseErrors.ts"
import * as PgWire from "./PgWire.ts"

/**
 * Serves one PGlite instance to PostgreSQL clients over a unix socket.
 *
 * PGlite is a single backend session. @electric-sql/pglite-socket interleaves the clients of
 * several connections message by message, so two clients' extended-protocol frames mix
 * (`portal "" does not exist`). Here the unit of interleaving is a whole frame (up to Sync or
 * Query), and a client that leaves the backend inside a transaction keeps it until the
 * transaction ends: other connections wait, as they would on a row lock in PostgreSQL.
 * So the service and `marginctl` can share the embedded database, one statement or one
 * transaction at a time.
 *
 * What a connection leaves behind is cleaned up when it goes: an open transaction is rolled
 * back and the statements it prepared are closed. COPY FROM STDIN and LISTEN are not
 * supported over this socket.
 */
export const serve = (
  db: PGlite,
  socketPath: string
): Effect.Effect<void, SocketServer.SocketServerError, Scope.Scope> =>
  Effect.gen(function* () {
    // One permit: whoever holds it talks to the backend.
    const backend = yield* Semaphore.make(1)
    const server = yield* NodeSocketServer.make({ path: socketPath })
    // Closing the scope interrupts every session; each one's finalizer rolls back what it left open.
    // A running frame is not interrupted (see execute), so the database closes after the last one.
    yield* Effect.forkScoped(server.run((socket) => session(db, backend, socket)))
  })

const execute = (db: PGlite, message: Uint8Array): Effect.Effect<ReadonlyArray<Uint8Array>, DatabaseUnavailable> =>
  Effect.uninterruptible(
    Effect.tryPromise({
      try: () =>
        db.runExclusive(async () => {
          const output: Array<Uint8Array> = []
          // PGlite reuses its buffer between callbacks: keep copies.
          await db.execProtocolRawStream(message, { onRawData: (data) => output.push(data.slice()) })
          return output
        }),
      catch: (cause) => new DatabaseUnavailable({ message: "the embedded database failed to execute a request", cause })
    })
  )

/** One client connection: startup, then frames, each run while this connection holds the backend. */
const session = (db: PGlite, backend: Semaphore.Semaphore, socket: Socket.Socket) =>
  Effect.gen(function* () {
    const pull = yield* Socket.readerBytes(socket)
    const writer = yield* socket.writer
    const state = new PgWire.SessionState()
    let holding = false

    const acquire = Effect.uninterruptibleMask((restore) =>
      holding
        ? Effect.void
        : restore(backend.take(1)).pipe(
            Effect.tap(() =>
              Effect.sync(() => {
                holding = true
              })
            )
          )
    )
    const release = Effect.suspend(() => {
      if (!holding) return Effect.void
      holding = false
      return backend.release(1)
    })
    const run = (step: PgWire.Step & { readonly _tag: "Execute" }) =>
      Effect.gen(function* () {
        yield* acquire
        const output = yield* execute(db, step.bytes)
        state.ran(step)
        const [first, ...rest] = output
        if (first !== undefined) yield* writer.writeAll([first, ...rest])
        if (step.endsFrame && !db.isInTransaction()) yield* release
      })

    // Runs however the connection ends: roll back what it left open, forget what it prepared.
    yield* Effect.addFinalizer(() =>
      Effect.gen(function* () {
        const cleanup = state.cleanup(db.isInTransaction() && holding)
        if (cleanup !== undefined) {
          yield* acquire
          yield* Effect.ignore(execute(db, cleanup))
        }
        yield* release
      })
    )

    while (true) {
      const chunks = yield* pull
      for (const step of state.receive(chunks)) {
        switch (step._tag) {
          case "Reply":
            yield* writer.write(step.bytes)
            break
          case "Execute":
            yield* run(step)
            break
          case "Close":
            return
        }
      }
    }
  }).pipe(
    Effect.scoped,
    Effect.catchTag("SocketError", () => Effect.void)
  )
