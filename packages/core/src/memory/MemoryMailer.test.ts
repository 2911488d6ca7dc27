import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as MemoryMailer from "../../src/memory/MemoryMailer.ts"
import { Mailer } from "../kernel/Mailer.ts"

describe("MemoryMailer", () => {
  it.effect("keeps what it sent, in order", () =>
    Effect.gen(function* () {
      const mailer = yield* Mailer
      const message = { key: "k1", to: "a@example.com", subject: "s", text: "t", date: 1 }
      yield* mailer.send(message)
      yield* mailer.send({ ...message, key: "k2" })
      const sent = yield* (yield* MemoryMailer.MemoryOutbox).sent
      assert.deepStrictEqual(
        sent.map((one) => one.key),
        ["k1", "k2"]
      )
    }).pipe(Effect.provide(MemoryMailer.layer))
  )
})
