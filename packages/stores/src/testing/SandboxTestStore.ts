import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { IdGenerator } from "@margin/core/kernel/IdGenerator"
import { WorkspaceId, WriteBackId } from "@margin/core/kernel/Ids"
import { CurrencyCode, type Money } from "@margin/core/kernel/Money"
import * as MemoryIdGenerator from "@margin/core/memory/MemoryIdGenerator"
import type { StoreConnection } from "@margin/core/stores/StoreConnection"
import { aStoreConnection, aWorkspace, aWriteBack, aWriteBackPayload } from "@margin/core/testing/Fixtures"
import { StoreHarness } from "@margin/core/testing/StoreHarness"
import { WorkspaceRepository } from "@margin/core/workspaces/WorkspaceRepository"
import { StoreWriteBack } from "@margin/core/writeback/StoreWriteBack"
import type { WriteBack } from "@margin/core/writeback/WriteBack"
import { PgSandboxStore, PgWorkspaceRepository } from "@margin/postgres"
import { TestDatabase } from "@margin/postgres/testing/TestDatabase"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { SandboxFaults } from "../SandboxFaults.ts"
import { SandboxStore } from "../SandboxStore.ts"
import { resultPrefix } from "./deliverOnce.ts"

/**
 * The sandbox store on a fresh migrated TestDatabase (embedded PostgreSQL, or DATABASE_URL's server),
 * bound to the StoreWriteBack port, with scriptable faults, the StoreHarness of the port's contract
 * and a workspace repository (sandbox variants belong to an existing workspace).
 */
export const sandboxTestStore = Layer.mergeAll(
  Layer.effect(
    StoreWriteBack,
    Effect.map(SandboxStore, (store) => StoreWriteBack.of(store))
  ),
  Layer.effect(
    StoreHarness,
    Effect.gen(function* () {
      const workspaces = yield* WorkspaceRepository
      const ids = yield* IdGenerator
      const sql = yield* SqlClient.SqlClient
      const inDatabase = Effect.provideService(SqlClient.SqlClient, sql)
      return StoreHarness.of({
        connection: (workspaceId) =>
          workspaces
            .insert(aWorkspace({ id: workspaceId }))
            .pipe(Effect.orDie, Effect.as(aStoreConnection({ workspaceId, platform: "sandbox" }))),
        newVariant: (workspaceId, price) =>
          Effect.gen(function* () {
            const variantRef = yield* ids.next("catalogItem")
            yield* PgSandboxStore.seedVariants(workspaceId, [{ variantRef, price, currency: "USD" }])
            return variantRef
          }).pipe(Effect.orDie, inDatabase),
        setPrice: (workspaceId, variantRef, price) =>
          PgSandboxStore.setPriceBehindOurBack(workspaceId, variantRef, price).pipe(Effect.orDie, inDatabase),
        priceOf: (workspaceId, variantRef) =>
          PgSandboxStore.sandboxPrice(workspaceId, variantRef).pipe(
            Effect.map(Option.fromNullishOr),
            Effect.orDie,
            inDatabase
          )
      })
    })
  )
).pipe(
  Layer.provideMerge(SandboxStore.layer),
  Layer.provideMerge(Layer.mergeAll(SandboxFaults.layerTest, PgWorkspaceRepository.layer, MemoryIdGenerator.layer)),
  Layer.provideMerge(TestDatabase.layer)
)

/**
 * A workspace with one sandbox variant at `price`, and the write-back of its approval to `newPrice`
 * (a fresh workspace each time, so tests sharing one database stay independent).
 */
export const sandboxScene = Effect.fnUntraced(function* (price: Money["amount"] = 1000, newPrice = 1200) {
  const harness = yield* StoreHarness
  const ids = yield* IdGenerator
  const workspaceId = WorkspaceId.make(yield* ids.next("workspace"))
  const connection = yield* harness.connection(workspaceId)
  const variantRef = yield* harness.newVariant(workspaceId, price)
  const writeBack = (oldPrice: number, to: number) =>
    aWriteBack({
      id: WriteBackId.make(`wb_${variantRef}_${to}`),
      workspaceId,
      payload: aWriteBackPayload({
        storeVariantRef: variantRef,
        currency: CurrencyCode.make("USD"),
        oldPrice,
        newPrice: to
      })
    })
  return { workspaceId, connection, variantRef, writeBack: writeBack(price, newPrice), writeBackTo: writeBack }
})

const deliverOnceScript = fileURLToPath(new URL("./deliverOnce.ts", import.meta.url))

export interface ChildExit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  /** The store's answer the process printed, if it lived to print one. */
  readonly result: unknown
  /** Everything it wrote (logs, errors), for assertion messages. */
  readonly output: string
}

const resultOf = (output: string): unknown => {
  const line = output.split("\n").find((candidate) => candidate.startsWith(resultPrefix))
  return line === undefined ? null : JSON.parse(line.slice(resultPrefix.length))
}

/**
 * Delivers `writeBack` from another process (deliverOnce.ts) on the TestDatabase, with `env` added
 * (SANDBOX_* faults): how that process ended, and what it printed.
 */
export const deliverInChildProcess = (
  connection: StoreConnection,
  writeBack: WriteBack,
  env: Readonly<Record<string, string>>
) =>
  Effect.gen(function* () {
    const database = yield* TestDatabase
    const location = { DATABASE_URL: database.url }
    return yield* Effect.callback<ChildExit>((resume) => {
      const child = spawn(
        process.execPath,
        [deliverOnceScript, JSON.stringify(connection), JSON.stringify(writeBack)],
        {
          env: { ...process.env, ...location, ...env },
          stdio: ["ignore", "pipe", "pipe"]
        }
      )
      let output = ""
      const collect = (chunk: Buffer) => {
        output += chunk.toString("utf8")
      }
      child.stdout.on("data", collect)
      child.stderr.on("data", collect)
      child.on("error", (error) => resume(Effect.die(error)))
      child.on("close", (code, signal) =>
        resume(Effect.sync(() => ({ code, signal, result: resultOf(output), output })))
      )
      return Effect.sync(() => child.kill("SIGKILL"))
    })
  })
