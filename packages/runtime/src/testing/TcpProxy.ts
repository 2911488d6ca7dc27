import { createConnection, createServer, type Server, type Socket } from "node:net"
import { Effect } from "effect"

export interface TcpProxy {
  /** The port the proxy listens on (127.0.0.1); it stays the same across cut and restore. */
  readonly port: number
  /** Refuses new connections and drops the open ones, as a dependency that went away. */
  readonly cut: Effect.Effect<void>
  /** Listens again on the same port. */
  readonly restore: Effect.Effect<void>
  /**
   * Holds every answer of the target this long before passing it on (in order), as a slow but
   * working dependency; 0 passes them at once again.
   */
  readonly slowDown: (millis: number) => Effect.Effect<void>
}

const listen = (server: Server, port: number) =>
  Effect.callback<number>((resume) => {
    server.listen(port, "127.0.0.1", () => {
      const address = server.address()
      resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : port))
    })
  })

/**
 * A plain TCP proxy from a local port to `target`, for outage tests: cut it and every connection
 * through it is gone, restore it and clients that reconnect reach the target again; slow it down
 * and the target answers late. Closed with the scope.
 */
export const make = (target: { readonly host: string; readonly port: number }) =>
  Effect.gen(function* () {
    const sockets = new Set<Socket>()
    const track = (socket: Socket) => {
      sockets.add(socket)
      socket.on("close", () => sockets.delete(socket))
      socket.on("error", () => socket.destroy())
    }
    let delayMillis = 0
    const serve = (client: Socket) => {
      const upstream = createConnection(target.port, target.host)
      track(client)
      track(upstream)
      client.pipe(upstream)
      // Each answer leaves `delayMillis` after it came, in the order they came: one queue, one timer.
      const held: Array<{ readonly chunk: Buffer; readonly due: number }> = []
      const release = () => {
        while (held[0] !== undefined && held[0].due <= Date.now()) {
          const next = held.shift()
          if (next !== undefined && client.writable) client.write(next.chunk)
        }
        if (held[0] !== undefined) setTimeout(release, held[0].due - Date.now())
      }
      upstream.on("data", (chunk: Buffer) => {
        if (delayMillis === 0 && held.length === 0) return void client.write(chunk)
        held.push({ chunk, due: Date.now() + delayMillis })
        if (held.length === 1) setTimeout(release, delayMillis)
      })
      client.on("close", () => upstream.destroy())
      upstream.on("close", () => client.destroy())
    }
    let server = createServer(serve)
    const port = yield* listen(server, 0)
    const cut = Effect.callback<void>((resume) => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resume(Effect.void))
    })
    const restore = Effect.suspend(() => {
      server = createServer(serve)
      return Effect.asVoid(listen(server, port))
    })
    yield* Effect.addFinalizer(() => Effect.ignore(cut))
    const slowDown = (millis: number) =>
      Effect.sync(() => {
        delayMillis = millis
      })
    const proxy: TcpProxy = { port, cut, restore, slowDown }
    return proxy
  })
