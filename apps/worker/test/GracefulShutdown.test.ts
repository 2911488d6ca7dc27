import { connect } from "node:net"
import { assert, describe, it } from "@effect/vitest"
import { eventually } from "@margin/jobs/testing/Eventually"
import { seedApprovalWorkspace } from "@margin/runtime/testing/ApprovalWorld"
import { startRestServer } from "@margin/runtime/testing/ChildProcesses"
import * as ScratchDatabase from "@margin/runtime/testing/ScratchDatabase"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * SIGTERM to a REST server process (issue 4, "Graceful shutdown"): it stops accepting connections,
 * finishes the request in flight, then exits 0. The request in flight is a POST whose body is
 * still arriving when the signal comes: the handler, past authentication, waits for it.
 */

interface OpenRequest {
  /** Sends the rest of the body and reads the whole answer (the server closes the connection). */
  readonly finish: (rest: string) => Effect.Effect<string>
}

const startPost = (port: number, path: string, token: string, body: string, sentFirst: number) =>
  Effect.promise(
    () =>
      new Promise<OpenRequest>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1")
        const chunks: Array<Buffer> = []
        const ended = new Promise<string>((done) => {
          socket.on("data", (chunk) => chunks.push(chunk))
          socket.on("close", () => done(Buffer.concat(chunks).toString("utf8")))
        })
        socket.on("error", reject)
        socket.on("connect", () => {
          socket.write(
            [
              `POST ${path} HTTP/1.1`,
              "host: 127.0.0.1",
              `authorization: Bearer ${token}`,
              "content-type: application/json",
              `content-length: ${Buffer.byteLength(body)}`,
              "",
              body.slice(0, sentFirst)
            ].join("\r\n")
          )
          resolve({
            finish: (rest) =>
              Effect.promise(() => {
                socket.write(rest)
                return ended
              })
          })
        })
      })
  )

/** Whether a new connection to `port` is refused. */
const refused = (port: number) =>
  Effect.promise(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = connect(port, "127.0.0.1")
        socket.on("connect", () => {
          socket.destroy()
          resolve(false)
        })
        socket.on("error", () => resolve(true))
      })
  )

describe("SIGTERM to a REST server process", () => {
  it.live(
    "stops accepting, answers the request in flight, exits 0",
    () =>
      Effect.gen(function* () {
        const database = yield* ScratchDatabase.ScratchDatabase
        const { token, tokenId } = yield* seedApprovalWorkspace()
        const api = yield* startRestServer("api", { DATABASE_URL: database.url })
        const port = Number(new URL(api.baseUrl).port)
        const body = JSON.stringify({ subset_tags: ["graceful"] })
        const inFlight = yield* startPost(port, "/api/v1/runs", token, body, 5)
        // The server has read the request's head and waits for its body: authentication counted the
        // request in the rate budget (in the database, without REDIS_URL).
        const sql = yield* SqlClient.SqlClient
        yield* eventually(
          Effect.map(
            sql<{ readonly count: number }>`SELECT count FROM rate_budget_windows WHERE key = ${`token:${tokenId}`}`,
            (rows) => rows.length > 0
          ),
          "the request in flight authenticated",
          { within: "60 seconds" }
        )

        process.kill(api.pid, "SIGTERM")
        yield* api.waitUntil(refused(port), "new connections refused", "20 seconds")

        const answer = yield* inFlight.finish(body.slice(5))
        assert.match(answer, /^HTTP\/1\.1 202 /, answer)
        assert.include(answer, '"status":"queued"', answer)
        const status = yield* api.exited
        assert.deepStrictEqual(status, { code: 0, signal: null }, yield* api.output)
      }).pipe(Effect.scoped, Effect.provide(ScratchDatabase.layer)),
    { timeout: 120_000 }
  )
})
