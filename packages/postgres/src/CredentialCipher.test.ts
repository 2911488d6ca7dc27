import { assert, describe, it, layer } from "@effect/vitest"
import { WorkspaceId } from "@margin/core/kernel/Ids"
import { ConfigProvider, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import * as fc from "fast-check"
import { CredentialCipher } from "./CredentialCipher.ts"
import * as PgTestAdapters from "./testing/PgTestAdapters.ts"

const key = new Uint8Array(32).fill(1)
const otherKey = new Uint8Array(32).fill(2)
const workspace = WorkspaceId.make("ws_one")
const otherWorkspace = WorkspaceId.make("ws_two")

const withKey =
  (bytes: Uint8Array) =>
  <A, E>(effect: Effect.Effect<A, E, CredentialCipher>) =>
    Effect.provide(effect, CredentialCipher.layerKey(bytes))

describe("CredentialCipher", () => {
  it.effect("a sealed secret opens again, and its bytes do not contain it", () =>
    Effect.gen(function* () {
      const cipher = yield* CredentialCipher
      const sealed = yield* cipher.seal(workspace, "shpat_secret")
      assert.isFalse(Buffer.from(sealed).includes("shpat_secret"))
      assert.strictEqual(Redacted.value(yield* cipher.open(workspace, sealed)), "shpat_secret")
      const again = yield* cipher.seal(workspace, "shpat_secret")
      assert.notDeepEqual(again, sealed, "a fresh IV every time")
    }).pipe(withKey(key))
  )

  it.effect("a sealed secret does not open for another workspace, with another key, or altered", () =>
    Effect.gen(function* () {
      const sealed = yield* Effect.flatMap(CredentialCipher, (cipher) => cipher.seal(workspace, "shpat_secret")).pipe(
        withKey(key)
      )
      const open = (at: WorkspaceId, bytes: Uint8Array) =>
        Effect.flip(Effect.flatMap(CredentialCipher, (cipher) => cipher.open(at, bytes)))
      assert.strictEqual((yield* open(otherWorkspace, sealed).pipe(withKey(key)))._tag, "RepositoryError")
      assert.strictEqual((yield* open(workspace, sealed).pipe(withKey(otherKey)))._tag, "RepositoryError")
      const altered = Uint8Array.from(sealed)
      altered[altered.length - 1] = (altered[altered.length - 1] ?? 0) ^ 1
      assert.strictEqual((yield* open(workspace, altered).pipe(withKey(key)))._tag, "RepositoryError")
      assert.strictEqual((yield* open(workspace, sealed.subarray(0, 10)).pipe(withKey(key)))._tag, "RepositoryError")
    })
  )

  it.effect("any text round-trips", () =>
    Effect.gen(function* () {
      const cipher = yield* CredentialCipher
      const samples = fc.sample(fc.string({ unit: "grapheme", maxLength: 200 }), 100)
      for (const secret of samples) {
        const opened = yield* cipher.open(workspace, yield* cipher.seal(workspace, secret))
        assert.strictEqual(Redacted.value(opened), secret)
      }
    }).pipe(withKey(key))
  )

  it.effect("a key that is not 32 bytes is refused without showing it", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Effect.provide(Effect.void, CredentialCipher.layerKey(new Uint8Array(16))))
      assert.strictEqual(error._tag, "InvalidCredentialsKey")
      assert.include(error.message, "got 16 bytes")
    })
  )
})

// Layer.fresh: each build below is a process of its own, not the cipher the test layer built already.
layer(PgTestAdapters.layer, { timeout: "2 minutes" })(`CredentialCipher.layer (${PgTestAdapters.backend})`, (it) => {
  it.effect("without STORE_CREDENTIALS_KEY every process shares the development key kept in the database", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const build = Effect.provide(
        Effect.service(CredentialCipher),
        Layer.fresh(CredentialCipher.layer).pipe(
          Layer.provide(Layer.succeed(SqlClient.SqlClient, sql)),
          Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord({})))
        )
      )
      const first = yield* build
      const second = yield* build
      const sealed = yield* first.seal(workspace, "shpat_secret")
      assert.strictEqual(Redacted.value(yield* second.open(workspace, sealed)), "shpat_secret")
    })
  )

  it.effect("with STORE_CREDENTIALS_KEY that key seals, and a malformed one is refused", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const withConfig = (env: Record<string, string>) =>
        Layer.fresh(CredentialCipher.layer).pipe(
          Layer.provide(Layer.succeed(SqlClient.SqlClient, sql)),
          Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)))
        )
      const sealed = yield* Effect.flatMap(Effect.service(CredentialCipher), (cipher) =>
        cipher.seal(workspace, "shpat")
      ).pipe(Effect.provide(withConfig({ STORE_CREDENTIALS_KEY: Buffer.from(key).toString("base64") })))
      const opened = yield* Effect.flatMap(Effect.service(CredentialCipher), (cipher) =>
        cipher.open(workspace, sealed)
      ).pipe(withKey(key))
      assert.strictEqual(Redacted.value(opened), "shpat")
      const error = yield* Effect.flip(
        Effect.provide(Effect.void, withConfig({ STORE_CREDENTIALS_KEY: Buffer.from("short").toString("base64") }))
      )
      assert.strictEqual(error._tag, "InvalidCredentialsKey")
    })
  )
})
