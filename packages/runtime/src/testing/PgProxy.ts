import { createConnection, createServer, type Server, type Socket } from "node:net"
import { Effect, type Scope } from "effect"

/**
 * A TCP proxy between a service process and PostgreSQL that can lose the connection of one chosen
 * transaction at its COMMIT, for the "database connection lost during approve" fault tests. It reads
 * the client's side of the PostgreSQL protocol (startup, then typed messages) to find the statements
 * each connection runs;
 * everything else passes through untouched. Only plain-text connections are understood: the test
 * server runs without TLS, and the proxy forwards an SSLRequest so the server can refuse it.
 */

/**
 * Where the connection is cut:
 * - `before_commit`: the COMMIT never reaches the database, which rolls the transaction back;
 * - `after_commit`: the database commits and answers, but the answer never reaches the service.
 */
export type CutPoint = "before_commit" | "after_commit"

export interface PgProxy {
  readonly port: number
  /**
   * Cuts the connection of the next transaction that sends a statement containing `marker`, at its
   * COMMIT, as `at` says. One cut per call.
   */
  readonly cutNextTransaction: (marker: string, at: CutPoint) => Effect.Effect<void>
  /** How many connections were cut so far. */
  readonly cuts: Effect.Effect<number>
}

// Untyped first messages: their code sits after the length.
const sslRequestCode = 80877103
const gssEncRequestCode = 80877104
const cancelRequestCode = 80877102

const simpleQuery = 0x51 // 'Q'
const parse = 0x50 // 'P'
const bind = 0x42 // 'B'

/** The null-terminated string of `message` at `offset`, and the offset after it. */
const cstring = (message: Buffer, offset: number): readonly [string, number] => {
  const end = message.indexOf(0, offset)
  return [message.toString("utf8", offset, end), end + 1]
}

/**
 * The SQL a client message runs, if it runs any: a simple Query, or the Bind of a statement
 * prepared earlier on the connection (the driver prepares COMMIT once and binds it every time).
 * Parse messages are remembered in `prepared` by statement name.
 */
const executedSql = (message: Buffer, prepared: Map<string, string>): string | null => {
  if (message[0] === simpleQuery) return cstring(message, 5)[0]
  if (message[0] === parse) {
    const [name, afterName] = cstring(message, 5)
    prepared.set(name, cstring(message, afterName)[0])
    return null
  }
  if (message[0] === bind) {
    const [, afterPortal] = cstring(message, 5)
    return prepared.get(cstring(message, afterPortal)[0]) ?? null
  }
  return null
}

// CommandComplete of a COMMIT: 'C', length, "COMMIT\0".
const commitComplete = Buffer.from("COMMIT\0", "utf8")

interface Armed {
  readonly marker: string
  readonly at: CutPoint
}

/** The proxy on a random port of 127.0.0.1, in front of `host:port`; closed with its scope. */
export const start = (upstream: {
  readonly host: string
  readonly port: number
}): Effect.Effect<PgProxy, never, Scope.Scope> =>
  Effect.gen(function* () {
    const state: { armed: Armed | null; cuts: number } = { armed: null, cuts: 0 }
    const sockets = new Set<Socket>()

    const relay = (client: Socket) => {
      const server = createConnection(upstream.port, upstream.host)
      sockets.add(client)
      sockets.add(server)
      const cut = () => {
        state.cuts++
        client.destroy()
        server.destroy()
      }
      const prepared = new Map<string, string>()
      let pending = Buffer.alloc(0)
      let startup = true
      // This connection's transaction is the one to cut, and where.
      let target: CutPoint | null = null
      // After an after_commit COMMIT went out: the answer is withheld until the commit is confirmed.
      let withheld: Buffer | null = null

      client.on("data", (chunk: Buffer) => {
        pending = Buffer.concat([pending, chunk])
        while (true) {
          if (startup) {
            if (pending.length < 8) return
            const length = pending.readInt32BE(0)
            if (pending.length < length) return
            const code = pending.readInt32BE(4)
            startup = code === sslRequestCode || code === gssEncRequestCode || code === cancelRequestCode
            server.write(pending.subarray(0, length))
            pending = pending.subarray(length)
            continue
          }
          if (pending.length < 5) return
          const length = 1 + pending.readInt32BE(1)
          if (pending.length < length) return
          const message = pending.subarray(0, length)
          pending = pending.subarray(length)
          const sql = executedSql(message, prepared)
          if (sql !== null && state.armed !== null && sql.includes(state.armed.marker)) {
            target = state.armed.at
            state.armed = null
          }
          if (sql !== null && target !== null && /^\s*COMMIT\b/i.test(sql)) {
            if (target === "before_commit") return cut()
            withheld = Buffer.alloc(0)
            target = null
          }
          server.write(message)
        }
      })
      server.on("data", (chunk: Buffer) => {
        if (withheld === null) {
          client.write(chunk)
          return
        }
        withheld = Buffer.concat([withheld, chunk])
        if (withheld.includes(commitComplete)) cut()
      })
      const close = () => {
        sockets.delete(client)
        sockets.delete(server)
        client.destroy()
        server.destroy()
      }
      client.on("close", close)
      server.on("close", close)
      client.on("error", close)
      server.on("error", close)
    }

    const listening: Server = yield* Effect.acquireRelease(
      Effect.callback<Server>((resume) => {
        const server = createServer(relay)
        server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
      }),
      (server) =>
        Effect.callback<void>((resume) => {
          for (const socket of sockets) socket.destroy()
          server.close(() => resume(Effect.void))
        })
    )
    const address = listening.address()
    return {
      port: typeof address === "object" && address !== null ? address.port : 0,
      cutNextTransaction: (marker, at) =>
        Effect.sync(() => {
          state.armed = { marker, at }
        }),
      cuts: Effect.sync(() => state.cuts)
    }
  })
