import { createServer as createHttpServer } from "node:http"
import { NodeHttpServer } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { takenPort } from "../testing/ChildProcesses.ts"
import { ensurePortFree, listenFailureSaid } from "./PortCheck.ts"
import { describeStartFailure } from "./StartupFailure.ts"

const expectSaid = <A, E>(exit: Exit.Exit<A, E>, message: string) => {
  assert.isTrue(Exit.isFailure(exit))
  if (Exit.isFailure(exit)) assert.strictEqual(describeStartFailure(exit.cause), message)
}

describe("PortCheck", () => {
  it.effect("a taken port: the probe says which setting to change", () =>
    Effect.gen(function* () {
      const port = yield* takenPort
      expectSaid(
        yield* Effect.exit(ensurePortFree({ host: "127.0.0.1", port, portSetting: "PORT" })),
        `port ${port} is in use; set PORT`
      )
    }).pipe(Effect.scoped)
  )

  it.effect("a free port passes the probe and stays free", () =>
    Effect.gen(function* () {
      const port = yield* Effect.scoped(takenPort)
      yield* ensurePortFree({ host: "127.0.0.1", port, portSetting: "PORT" })
      yield* ensurePortFree({ host: "127.0.0.1", port, portSetting: "PORT" })
    })
  )

  it.effect("the server's own listen, losing a race for the port, says the same", () =>
    Effect.gen(function* () {
      const port = yield* takenPort
      const server = listenFailureSaid(NodeHttpServer.layer(createHttpServer, { host: "127.0.0.1", port }), {
        host: "127.0.0.1",
        port,
        portSetting: "MCP_PORT"
      })
      expectSaid(yield* Effect.exit(Layer.build(server)), `port ${port} is in use; set MCP_PORT`)
    }).pipe(Effect.scoped)
  )
})
