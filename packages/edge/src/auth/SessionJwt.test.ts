import { mkdtempSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { NodeServices } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { UserId } from "@margin/core/kernel/Ids"
import * as MemoryIdentityKeyStore from "@margin/core/memory/MemoryIdentityKeyStore"
import { ConfigProvider, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { base64url, exportJWK, exportSPKI, generateKeyPair, SignJWT } from "jose"
import {
  defaultSessionAudience,
  defaultSessionIssuer,
  InvalidSession,
  type InvalidSessionReason,
  SessionVerifier
} from "./SessionJwt.ts"
import { SessionKeyConfigError } from "./SessionJwtKeys.ts"
import { SessionSigner } from "./SessionJwtSigner.ts"

const user = UserId.make("usr_alice")
// TestClock starts at 0; every test sets it to this instant (epoch ms) first.
const now = 1_750_000_000_000
const nowSeconds = now / 1000

const configWith = (env: Record<string, string>) => ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))

/** The verifier as the service builds it from the environment, over a memory identity key store. */
const verifierLayer = (env: Record<string, string>) =>
  SessionVerifier.layer.pipe(Layer.provide([configWith(env), NodeServices.layer]))

const verifyAt = (jwt: string, at: number = now) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(at)
    const verifier = yield* SessionVerifier
    return yield* verifier.verify(jwt)
  })

const expectRejected = (jwt: string, reason: InvalidSessionReason, at: number = now) =>
  Effect.gen(function* () {
    const error = yield* Effect.flip(verifyAt(jwt, at))
    assert.instanceOf(error, InvalidSession)
    assert.strictEqual(error.reason, reason)
  })

const ecKeys = Effect.promise(() => generateKeyPair("ES256", { extractable: true }))

const claims = (
  overrides: { iss?: string; aud?: string; sub?: string | null; exp?: number | null } = {},
  header: { alg: string; kid?: string } = { alg: "ES256" }
) => {
  const jwt = new SignJWT({}).setProtectedHeader(header).setIssuedAt(nowSeconds - 10)
  jwt.setIssuer(overrides.iss ?? defaultSessionIssuer).setAudience(overrides.aud ?? defaultSessionAudience)
  if (overrides.sub !== null) jwt.setSubject(overrides.sub ?? user)
  if (overrides.exp !== null) jwt.setExpirationTime(overrides.exp ?? nowSeconds + 600)
  return jwt
}

describe("SessionVerifier with SESSION_PUBLIC_KEY", () => {
  it.effect("accepts a token signed by the configured key and answers its sub", () =>
    Effect.gen(function* () {
      const keys = yield* ecKeys
      const pem = yield* Effect.promise(() => exportSPKI(keys.publicKey))
      const jwt = yield* Effect.promise(() => claims().sign(keys.privateKey))
      const userId = yield* verifyAt(jwt).pipe(
        Effect.provide(verifierLayer({ SESSION_PUBLIC_KEY: pem.replaceAll("\n", "\\n") })),
        Effect.provide(MemoryIdentityKeyStore.layer)
      )
      assert.strictEqual(userId, user)
    })
  )

  it.effect("rejects expired, wrong issuer, wrong audience, missing sub or exp, other keys, alg none and HS256", () =>
    Effect.gen(function* () {
      const keys = yield* ecKeys
      const other = yield* ecKeys
      const pem = yield* Effect.promise(() => exportSPKI(keys.publicKey))
      const sign = (jwt: SignJWT) => Effect.promise(() => jwt.sign(keys.privateKey))
      const header = (value: object) => base64url.encode(JSON.stringify(value))
      const payload = header({
        sub: user,
        iss: defaultSessionIssuer,
        aud: defaultSessionAudience,
        exp: nowSeconds + 600
      })
      // The classic confusion attack: HMAC keyed with the verifier's own public key.
      const confused = yield* Effect.promise(() =>
        new SignJWT({ sub: user, iss: defaultSessionIssuer, aud: defaultSessionAudience, exp: nowSeconds + 600 })
          .setProtectedHeader({ alg: "HS256" })
          .sign(new TextEncoder().encode(pem))
      )
      const checks = Effect.gen(function* () {
        yield* expectRejected(yield* sign(claims({ exp: nowSeconds - 1 })), "expired")
        yield* expectRejected(yield* sign(claims({ iss: "someone-else" })), "wrong_issuer")
        yield* expectRejected(yield* sign(claims({ aud: "another-service" })), "wrong_audience")
        yield* expectRejected(yield* sign(claims({ sub: null })), "missing_claim")
        // A sub no user id can be: a NUL (PostgreSQL text cannot hold it), a control character, a lone surrogate.
        for (const sub of ["usr_\u0000", "usr_\u001f", "\u007f", "usr_\ud800"]) {
          yield* expectRejected(yield* sign(claims({ sub })), "missing_claim")
        }
        yield* expectRejected(yield* sign(claims({ exp: null })), "missing_claim")
        yield* expectRejected(yield* Effect.promise(() => claims().sign(other.privateKey)), "bad_signature")
        yield* expectRejected(`${header({ alg: "none", typ: "JWT" })}.${payload}.`, "algorithm_not_allowed")
        yield* expectRejected(confused, "algorithm_not_allowed")
        yield* expectRejected("not.a.jwt", "malformed")
        yield* expectRejected("x".repeat(10_000), "malformed")
      })
      yield* checks.pipe(
        Effect.provide(verifierLayer({ SESSION_PUBLIC_KEY: pem })),
        Effect.provide(MemoryIdentityKeyStore.layer)
      )
    })
  )

  it.effect("checks the configured issuer and audience", () =>
    Effect.gen(function* () {
      const keys = yield* ecKeys
      const pem = yield* Effect.promise(() => exportSPKI(keys.publicKey))
      const env = { SESSION_PUBLIC_KEY: pem, SESSION_ISSUER: "https://id.example", SESSION_AUDIENCE: "margin" }
      const jwt = yield* Effect.promise(() =>
        claims({ iss: "https://id.example", aud: "margin" }).sign(keys.privateKey)
      )
      const defaults = yield* Effect.promise(() => claims().sign(keys.privateKey))
      const checks = Effect.gen(function* () {
        assert.strictEqual(yield* verifyAt(jwt), user)
        yield* expectRejected(defaults, "wrong_issuer")
      })
      yield* checks.pipe(Effect.provide(verifierLayer(env)), Effect.provide(MemoryIdentityKeyStore.layer))
    })
  )

  it.effect("accepts RSA keys with RS256", () =>
    Effect.gen(function* () {
      const keys = yield* Effect.promise(() => generateKeyPair("RS256", { extractable: true }))
      const pem = yield* Effect.promise(() => exportSPKI(keys.publicKey))
      const jwt = yield* Effect.promise(() => claims({}, { alg: "RS256" }).sign(keys.privateKey))
      const userId = yield* verifyAt(jwt).pipe(
        Effect.provide(verifierLayer({ SESSION_PUBLIC_KEY: pem })),
        Effect.provide(MemoryIdentityKeyStore.layer)
      )
      assert.strictEqual(userId, user)
    })
  )
})

describe("SessionVerifier with SESSION_JWKS_FILE", () => {
  const writeTemp = (text: string): string => {
    const path = join(mkdtempSync(join(tmpdir(), "jwks-")), "jwks.json")
    writeFileSync(path, text)
    return path
  }

  it.effect("finds the signing key by kid", () =>
    Effect.gen(function* () {
      const first = yield* ecKeys
      const second = yield* ecKeys
      const jwks = {
        keys: [
          { ...(yield* Effect.promise(() => exportJWK(first.publicKey))), kid: "one", alg: "ES256" },
          { ...(yield* Effect.promise(() => exportJWK(second.publicKey))), kid: "two", alg: "ES256" }
        ]
      }
      const path = writeTemp(JSON.stringify(jwks))
      const jwt = yield* Effect.promise(() => claims({}, { alg: "ES256", kid: "two" }).sign(second.privateKey))
      const unknownKid = yield* Effect.promise(() => claims({}, { alg: "ES256", kid: "three" }).sign(second.privateKey))
      const checks = Effect.gen(function* () {
        assert.strictEqual(yield* verifyAt(jwt), user)
        yield* expectRejected(unknownKid, "unknown_key")
      })
      yield* checks.pipe(
        Effect.provide(verifierLayer({ SESSION_JWKS_FILE: path })),
        Effect.provide(MemoryIdentityKeyStore.layer)
      )
    })
  )

  it.effect("refuses a symmetric key, a file that is not a JWKS, and two key sources at once", () =>
    Effect.gen(function* () {
      const refusal = (env: Record<string, string>) =>
        Layer.build(verifierLayer(env)).pipe(
          Effect.provide(MemoryIdentityKeyStore.layer),
          Effect.scoped,
          Effect.flip,
          Effect.map((error) => (error instanceof SessionKeyConfigError ? error.message : String(error)))
        )
      assert.match(
        yield* refusal({ SESSION_JWKS_FILE: writeTemp('{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}') }),
        /symmetric \(oct\) key/
      )
      assert.match(yield* refusal({ SESSION_JWKS_FILE: writeTemp("[]") }), /is not a JWKS/)
      assert.match(yield* refusal({ SESSION_JWKS_FILE: "/nonexistent/jwks.json" }), /SESSION_JWKS_FILE/)
      assert.match(yield* refusal({ SESSION_PUBLIC_KEY: "hello" }), /not a PEM public key/)
      assert.match(
        yield* refusal({ SESSION_PUBLIC_KEY: "x", SESSION_JWKS_URL: "https://id.example/jwks" }),
        /set only one of/
      )
    })
  )
})

describe("SessionVerifier with SESSION_JWKS_URL", () => {
  it.effect("fetches the identity provider's keys", () =>
    Effect.gen(function* () {
      const keys = yield* ecKeys
      const jwks = JSON.stringify({
        keys: [{ ...(yield* Effect.promise(() => exportJWK(keys.publicKey))), kid: "idp-1", alg: "ES256" }]
      })
      const server = yield* Effect.acquireRelease(
        Effect.callback<Server>((resume) => {
          const listening = createServer((_request, response) => {
            response.writeHead(200, { "content-type": "application/json" })
            response.end(jwks)
          }).listen(0, "127.0.0.1", () => resume(Effect.succeed(listening)))
        }),
        (listening) => Effect.callback<void>((resume) => void listening.close(() => resume(Effect.void)))
      )
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      const jwt = yield* Effect.promise(() => claims({}, { alg: "ES256", kid: "idp-1" }).sign(keys.privateKey))
      const userId = yield* verifyAt(jwt).pipe(
        Effect.provide(verifierLayer({ SESSION_JWKS_URL: `http://127.0.0.1:${port}/jwks.json` })),
        Effect.provide(MemoryIdentityKeyStore.layer)
      )
      assert.strictEqual(userId, user)
    }).pipe(Effect.scoped)
  )
})

describe("development identity key", () => {
  it.effect("signs with a key generated once, which the verifier of another process finds in the store", () =>
    Effect.gen(function* () {
      const store = yield* Layer.build(MemoryIdentityKeyStore.layer)
      const signer = SessionSigner.layerDevelopment.pipe(Layer.provide(configWith({})))
      const token = yield* Effect.gen(function* () {
        yield* TestClock.setTime(now)
        return yield* (yield* SessionSigner).sign(user, 600)
      }).pipe(Effect.provide(signer), Effect.provide(store))
      const userId = yield* verifyAt(token).pipe(Effect.provide(verifierLayer({})), Effect.provide(store))
      assert.strictEqual(userId, user)

      yield* expectRejected(token, "expired", now + 601_000).pipe(
        Effect.provide(verifierLayer({})),
        Effect.provide(store)
      )
    }).pipe(Effect.scoped)
  )

  it.effect("is not accepted once a real key is configured", () =>
    Effect.gen(function* () {
      const store = yield* Layer.build(MemoryIdentityKeyStore.layer)
      const token = yield* Effect.gen(function* () {
        yield* TestClock.setTime(now)
        return yield* (yield* SessionSigner).sign(user, 600)
      }).pipe(Effect.provide(SessionSigner.layerDevelopment.pipe(Layer.provide(configWith({})))), Effect.provide(store))
      const keys = yield* ecKeys
      const pem = yield* Effect.promise(() => exportSPKI(keys.publicKey))
      yield* expectRejected(token, "bad_signature").pipe(
        Effect.provide(verifierLayer({ SESSION_PUBLIC_KEY: pem })),
        Effect.provide(store)
      )
    }).pipe(Effect.scoped)
  )
})
