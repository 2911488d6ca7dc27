import { createPublicKey, type KeyObject } from "node:crypto"
import { type IdentityKey, IdentityKeyStore } from "@margin/core/access/IdentityKeyStore"
import type { RepositoryError } from "@margin/core/kernel/Errors"
import { Clock, Config, Effect, FileSystem, Option, Schema } from "effect"
import {
  type CryptoKey,
  calculateJwkThumbprint,
  createLocalJWKSet,
  createRemoteJWKSet,
  exportJWK,
  generateKeyPair,
  type JSONWebKeySet,
  type JWK,
  type JWTVerifyGetKey
} from "jose"

/** Asymmetric signature algorithms only: a verifier that accepted HS* could be fed its own public key as the secret. */
export const asymmetricAlgorithms = [
  "ES256",
  "ES384",
  "ES512",
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "EdDSA",
  "Ed25519"
] as const
export type AsymmetricAlgorithm = (typeof asymmetricAlgorithms)[number]

/** A key (or a key set) to verify with, and the algorithms it may be used with. */
export interface SessionVerificationKey {
  readonly key: CryptoKey | KeyObject | JWTVerifyGetKey
  readonly algorithms: ReadonlyArray<AsymmetricAlgorithm>
}

/** The configured session key cannot be used: the service refuses to start rather than accept sessions blindly. */
export class SessionKeyConfigError extends Schema.TaggedError<SessionKeyConfigError>()("SessionKeyConfigError", {
  message: Schema.String
}) {}

/** Where the verification key comes from; `Development` = the identity key kept in the database. */
export type SessionKeySource =
  | { readonly _tag: "JwksFile"; readonly path: string }
  | { readonly _tag: "PublicKey"; readonly pem: string }
  | { readonly _tag: "JwksUrl"; readonly url: URL }
  | { readonly _tag: "Development" }

const optional = (name: string) => Config.option(Config.NonEmptyString(name))

/** SESSION_JWKS_FILE, SESSION_PUBLIC_KEY or SESSION_JWKS_URL; none of them = development. */
export const sessionKeySource: Effect.Effect<SessionKeySource, SessionKeyConfigError | Config.ConfigError> = Effect.gen(
  function* () {
    const file = yield* optional("SESSION_JWKS_FILE")
    const pem = yield* optional("SESSION_PUBLIC_KEY")
    const url = yield* Config.option(Config.URL("SESSION_JWKS_URL"))
    const configured = [
      Option.map(file, (path): SessionKeySource => ({ _tag: "JwksFile", path })),
      // Environments often carry a PEM on one line with literal "\n".
      Option.map(pem, (text): SessionKeySource => ({ _tag: "PublicKey", pem: text.replaceAll("\\n", "\n") })),
      Option.map(url, (value): SessionKeySource => ({ _tag: "JwksUrl", url: value }))
    ].flatMap(Option.toArray)
    if (configured.length > 1) {
      return yield* new SessionKeyConfigError({
        message: "set only one of SESSION_JWKS_FILE, SESSION_PUBLIC_KEY and SESSION_JWKS_URL"
      })
    }
    return configured[0] ?? { _tag: "Development" }
  }
)

const algorithmsOf = (key: KeyObject): ReadonlyArray<AsymmetricAlgorithm> | null => {
  switch (key.asymmetricKeyType) {
    case "ec": {
      const curve = key.asymmetricKeyDetails?.namedCurve
      return curve === "prime256v1"
        ? ["ES256"]
        : curve === "secp384r1"
          ? ["ES384"]
          : curve === "secp521r1"
            ? ["ES512"]
            : null
    }
    case "rsa":
      return ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"]
    case "rsa-pss":
      return ["PS256", "PS384", "PS512"]
    case "ed25519":
      return ["EdDSA", "Ed25519"]
    default:
      return null
  }
}

/** A PEM public key (SPKI or certificate), with the algorithms its type allows. */
export const publicKeyFromPem = (pem: string): Effect.Effect<SessionVerificationKey, SessionKeyConfigError> =>
  Effect.try({
    try: () => createPublicKey(pem),
    catch: () => new SessionKeyConfigError({ message: "SESSION_PUBLIC_KEY is not a PEM public key" })
  }).pipe(
    Effect.flatMap((key) => {
      const algorithms = algorithmsOf(key)
      return algorithms === null
        ? Effect.fail(
            new SessionKeyConfigError({
              message: `SESSION_PUBLIC_KEY is a ${key.asymmetricKeyType ?? "unknown"} key: use EC (P-256/384/521), RSA or Ed25519`
            })
          )
        : Effect.succeed({ key, algorithms })
    })
  )

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isJwkSet = (value: unknown): value is JSONWebKeySet =>
  isRecord(value) &&
  Array.isArray(value.keys) &&
  value.keys.every((key: unknown) => isRecord(key) && typeof key.kty === "string")

const parseJson = (text: string, what: string): Effect.Effect<unknown, SessionKeyConfigError> =>
  Effect.try({
    try: () => JSON.parse(text),
    catch: () => new SessionKeyConfigError({ message: `${what} is not JSON` })
  })

/** A JWKS document: asymmetric keys only (an `oct` key would let a shared secret sign sessions). */
export const keySetFromJson = (
  text: string,
  what: string
): Effect.Effect<SessionVerificationKey, SessionKeyConfigError> =>
  Effect.gen(function* () {
    const document = yield* parseJson(text, what)
    if (!isJwkSet(document) || document.keys.length === 0) {
      return yield* new SessionKeyConfigError({
        message: `${what} is not a JWKS: expected {"keys": [...]} with at least one key`
      })
    }
    if (document.keys.some((key) => key.kty === "oct")) {
      return yield* new SessionKeyConfigError({
        message: `${what} holds a symmetric (oct) key: session keys must be asymmetric`
      })
    }
    return { key: createLocalJWKSet(document), algorithms: asymmetricAlgorithms }
  })

/** The development identity key: the stored one, or a new ES256 pair stored for every later caller. */
export const developmentIdentityKey: Effect.Effect<IdentityKey, RepositoryError, IdentityKeyStore> = Effect.gen(
  function* () {
    const store = yield* IdentityKeyStore
    const current = yield* store.current
    if (Option.isSome(current)) return current.value
    const pair = yield* Effect.promise(() => generateKeyPair("ES256", { extractable: true }))
    const publicJwk = yield* Effect.promise(() => exportJWK(pair.publicKey))
    const privateJwk = yield* Effect.promise(() => exportJWK(pair.privateKey))
    const kid = yield* Effect.promise(() => calculateJwkThumbprint(publicJwk))
    const createdAt = yield* Clock.currentTimeMillis
    return yield* store.insertIfAbsent({
      kid,
      algorithm: "ES256",
      publicJwk: JSON.stringify({ ...publicJwk, kid, alg: "ES256", use: "sig" }),
      privateJwk: JSON.stringify({ ...privateJwk, kid, alg: "ES256", use: "sig" }),
      createdAt
    })
  }
)

const developmentVerificationKey: Effect.Effect<
  SessionVerificationKey,
  RepositoryError | SessionKeyConfigError,
  IdentityKeyStore
> = Effect.gen(function* () {
  const identity = yield* developmentIdentityKey
  const keySet = yield* keySetFromJson(`{"keys":[${identity.publicJwk}]}`, "the development identity key")
  return { key: keySet.key, algorithms: [identity.algorithm] }
})

/** The key the service verifies sessions with, from the configuration (see `sessionKeySource`). */
export const sessionVerificationKey: Effect.Effect<
  SessionVerificationKey,
  SessionKeyConfigError | RepositoryError | Config.ConfigError,
  IdentityKeyStore | FileSystem.FileSystem
> = Effect.gen(function* () {
  const source = yield* sessionKeySource
  switch (source._tag) {
    case "JwksFile": {
      const fs = yield* FileSystem.FileSystem
      const text = yield* fs
        .readFileString(source.path)
        .pipe(
          Effect.mapError(
            (error) => new SessionKeyConfigError({ message: `SESSION_JWKS_FILE ${source.path}: ${error.message}` })
          )
        )
      return yield* keySetFromJson(text, `SESSION_JWKS_FILE ${source.path}`)
    }
    case "PublicKey":
      return yield* publicKeyFromPem(source.pem)
    case "JwksUrl":
      return { key: createRemoteJWKSet(source.url), algorithms: asymmetricAlgorithms }
    case "Development":
      return yield* developmentVerificationKey
  }
})

/** The private JWK of a stored identity key. It was written by `developmentIdentityKey`: anything else is a defect. */
export const privateJwkOf = (identity: IdentityKey): Effect.Effect<JWK> =>
  parseJson(identity.privateJwk, "the development identity key").pipe(
    Effect.flatMap((value) =>
      isRecord(value) && typeof value.kty === "string" && isJwkSet({ keys: [value] })
        ? Effect.succeed(value)
        : Effect.fail(new SessionKeyConfigError({ message: "the stored development identity key is not a JWK" }))
    ),
    Effect.orDie
  )
