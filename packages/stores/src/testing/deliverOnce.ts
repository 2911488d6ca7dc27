/**
 * Delivers one write-back through the sandbox store of the database named by the environment
 * (DATABASE_URL, else the embedded database in DATA_DIR) and prints the store's answer as one line
 * `result: <JSON>` (logs go to the same output).
 * Fault tests run it as a child process with SANDBOX_* variables (see SandboxFaults), e.g. to see
 * SANDBOX_CRASH_AFTER_WRITE kill it right after the commit.
 *   node deliverOnce.ts '<StoreConnection JSON>' '<WriteBack JSON>'
 */
import { NodeRuntime } from "@effect/platform-node"
import { StoreConnection } from "@margin/core/stores/StoreConnection"
import { WriteBack } from "@margin/core/writeback/WriteBack"
import { Database } from "@margin/postgres"
import { Console, Effect, Layer, Schema } from "effect"
import { SandboxFaults } from "../SandboxFaults.ts"
import { SandboxStore } from "../SandboxStore.ts"

export const resultPrefix = "result: "

const deliverFromArguments = Effect.gen(function* () {
  const [connectionJson = "", writeBackJson = ""] = process.argv.slice(2)
  const connection = yield* Schema.decodeUnknownEffect(Schema.fromJsonString(StoreConnection))(connectionJson)
  const writeBack = yield* Schema.decodeUnknownEffect(Schema.fromJsonString(WriteBack))(writeBackJson)
  const store = yield* SandboxStore
  const result = yield* store.deliver(connection, writeBack)
  yield* Console.log(`${resultPrefix}${JSON.stringify(result)}`)
})

// Runs only as the entry point: the tests import `resultPrefix` from here.
if (import.meta.main) {
  deliverFromArguments.pipe(
    Effect.provide(SandboxStore.layer.pipe(Layer.provide([SandboxFaults.layer, Database.layer]))),
    NodeRuntime.runMain
  )
}
