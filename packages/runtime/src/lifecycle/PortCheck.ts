import { createServer } from "node:net"
import { Effect, Layer, Predicate, Schema } from "effect"

/** The server cannot listen where its settings say; the message names the setting to change. */
export class PortUnavailable extends Schema.TaggedError<PortUnavailable>()("PortUnavailable", {
  message: Schema.String
}) {}

/** Where a process listens, and the setting that chooses its port (PORT, MCP_PORT). */
export interface ListenAddress {
  readonly host: string
  readonly port: number
  readonly portSetting: string
}

const codeOf = (error: unknown): unknown => (Predicate.hasProperty(error, "code") ? error.code : undefined)

/** Node's listen error as one line for the operator. */
export const unavailableBecause = (error: unknown, address: ListenAddress): PortUnavailable => {
  const { host, port, portSetting } = address
  const code = codeOf(error)
  const message =
    code === "EADDRINUSE"
      ? `port ${port} is in use; set ${portSetting}`
      : code === "EACCES"
        ? `port ${port} needs privileges this process does not have; set ${portSetting}`
        : code === "EADDRNOTAVAIL"
          ? `HOST ${host} is not an address of this machine; set HOST`
          : `cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}`
  return new PortUnavailable({ message })
}

/**
 * Fails with `PortUnavailable` when nothing could listen on the address now: checked before a
 * process opens its database or seeds anything (`npm start` runs it before the demo), so that a
 * taken port is said at once and first. A probe, not a reservation: the server's own listen may
 * still lose a race, and says the same (`listenFailureSaid`).
 */
export const ensurePortFree = (address: ListenAddress): Effect.Effect<void, PortUnavailable> =>
  Effect.callback<void, PortUnavailable>((resume) => {
    const probe = createServer()
    probe.once("error", (error) => resume(Effect.fail(unavailableBecause(error, address))))
    probe.listen({ host: address.host, port: address.port, exclusive: true }, () =>
      probe.close(() => resume(Effect.void))
    )
  })

/** The server layer, its listen failure (Node's error, wrapped with an empty message) said as `PortUnavailable`. */
export const listenFailureSaid = <A, R>(
  server: Layer.Layer<A, { readonly _tag: "ServeError"; readonly cause: unknown }, R>,
  address: ListenAddress
): Layer.Layer<A, PortUnavailable, R> =>
  Layer.catchTag(server, "ServeError", (error) =>
    Layer.effectContext<A, PortUnavailable, never>(Effect.fail(unavailableBecause(error.cause, address)))
  )
