import { assert, describe, it } from "@effect/vitest"
import { WorkspaceId } from "@margin/core/Ids"
import { Effect, Redacted } from "effect"
import * as fc from "fast-check"
import { CredentialCipher } from "./CredentialCipher.ts"

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
