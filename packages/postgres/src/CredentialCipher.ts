import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"
import { RepositoryError } from "@margin/core/kernel/Errors"
import type { WorkspaceId } from "@margin/core/kernel/Ids"
import { Config, Context, Effect, Layer, Option, Redacted, Ref, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { asRepository } from "./PgRepositoryError.ts"

/**
 * Seals store credentials (a Shopify access token) for `store_connections.encrypted_credentials`
 * with AES-256-GCM. The workspace id is authenticated data: a sealed value copied to another
 * workspace's row does not open. Layout: version byte, 12-byte IV, 16-byte tag, ciphertext.
 *
 * The key is STORE_CREDENTIALS_KEY (32 bytes, base64). Without it, a development key is generated
 * once and kept in the database (`credential_keys`), like the development identity key: that
 * keeps the demo working, but a key stored beside the ciphertext protects nothing against someone
 * who reads the database. Production sets STORE_CREDENTIALS_KEY.
 */
export class CredentialCipher extends Context.Service<
  CredentialCipher,
  {
    readonly seal: (workspaceId: WorkspaceId, secret: string) => Effect.Effect<Uint8Array, RepositoryError>
    readonly open: (
      workspaceId: WorkspaceId,
      sealed: Uint8Array
    ) => Effect.Effect<Redacted.Redacted<string>, RepositoryError>
  }
>()("margin/postgres/CredentialCipher") {
  /**
   * A cipher over the key `key` obtains. The key is kept once obtained; a failure to obtain it (the
   * database unreachable) is not kept, so the next call tries again.
   */
  static readonly make = (key: Effect.Effect<Redacted.Redacted<Uint8Array>, RepositoryError>) =>
    Effect.map(Ref.make(Option.none<Redacted.Redacted<Uint8Array>>()), (kept) => {
      const currentKey = Effect.flatMap(
        Ref.get(kept),
        Option.match({
          onSome: Effect.succeed,
          onNone: () => Effect.tap(key, (obtained) => Ref.set(kept, Option.some(obtained)))
        })
      )
      return CredentialCipher.of({
        seal: (workspaceId, secret) =>
          Effect.map(currentKey, (bytes) => seal(Redacted.value(bytes), workspaceId, secret)),
        open: (workspaceId, sealed) =>
          Effect.flatMap(currentKey, (bytes) =>
            Effect.map(open(Redacted.value(bytes), workspaceId, sealed), Redacted.make)
          )
      })
    })

  /** A fixed key: tests. */
  static readonly layerKey = (key: Uint8Array): Layer.Layer<CredentialCipher, InvalidCredentialsKey> =>
    Layer.effect(
      CredentialCipher,
      Effect.flatMap(checkKey(key), (checked) => CredentialCipher.make(Effect.succeed(checked)))
    )

  /** STORE_CREDENTIALS_KEY, else the development key in the database (read or created on first use). */
  static readonly layer: Layer.Layer<
    CredentialCipher,
    Config.ConfigError | InvalidCredentialsKey,
    SqlClient.SqlClient
  > = Layer.effect(
    CredentialCipher,
    Effect.gen(function* () {
      const configured = yield* Config.option(Config.Redacted("STORE_CREDENTIALS_KEY"))
      if (Option.isSome(configured)) {
        const key = yield* checkKey(Buffer.from(Redacted.value(configured.value), "base64"))
        return yield* CredentialCipher.make(Effect.succeed(key))
      }
      const sql = (yield* SqlClient.SqlClient).withoutTransforms()
      return yield* CredentialCipher.make(developmentKey(sql))
    })
  )
}

/** STORE_CREDENTIALS_KEY is not 32 bytes of base64. The message never shows the key. */
export class InvalidCredentialsKey extends Schema.TaggedError<InvalidCredentialsKey>()("InvalidCredentialsKey", {
  message: Schema.String
}) {}

const keyLength = 32
const ivLength = 12
const tagLength = 16
const version = 1

const checkKey = (key: Uint8Array): Effect.Effect<Redacted.Redacted<Uint8Array>, InvalidCredentialsKey> =>
  key.length === keyLength
    ? Effect.succeed(Redacted.make(key))
    : Effect.fail(
        new InvalidCredentialsKey({
          message: `STORE_CREDENTIALS_KEY must be ${keyLength} bytes in base64 (e.g. \`openssl rand -base64 32\`), got ${key.length} bytes`
        })
      )

const associatedData = (workspaceId: WorkspaceId): Buffer => Buffer.from(`store_connections:${workspaceId}`, "utf8")

export const seal = (key: Uint8Array, workspaceId: WorkspaceId, secret: string): Uint8Array => {
  const iv = randomBytes(ivLength)
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: tagLength })
  cipher.setAAD(associatedData(workspaceId))
  const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()])
  return Buffer.concat([Buffer.from([version]), iv, cipher.getAuthTag(), ciphertext])
}

/** The secret; fails when `sealed` was not sealed with this key for this workspace, or was altered. */
export const open = (
  key: Uint8Array,
  workspaceId: WorkspaceId,
  sealed: Uint8Array
): Effect.Effect<string, RepositoryError> => {
  const unreadable = (why: string) =>
    new RepositoryError({ operation: "CredentialCipher.open", message: `the stored credentials do not open: ${why}` })
  const bytes = Buffer.from(sealed)
  if (bytes.length < 1 + ivLength + tagLength || bytes[0] !== version) return Effect.fail(unreadable("unknown layout"))
  return Effect.try({
    try: () => {
      const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(1, 1 + ivLength), {
        authTagLength: tagLength
      })
      decipher.setAAD(associatedData(workspaceId))
      decipher.setAuthTag(bytes.subarray(1 + ivLength, 1 + ivLength + tagLength))
      // `final` throws when the tag does not verify: the only way node:crypto says so.
      return Buffer.concat([decipher.update(bytes.subarray(1 + ivLength + tagLength)), decipher.final()]).toString(
        "utf8"
      )
    },
    catch: () => unreadable("wrong key (was STORE_CREDENTIALS_KEY changed?), another workspace's row, or altered bytes")
  })
}

const KeyRow = Schema.Struct({ key: Schema.Uint8Array })
const decodeKeyRows = Schema.decodeUnknownEffect(Schema.Array(KeyRow))

/** The development key: created by the first process that needs one; concurrent creators agree on the first. */
const developmentKey = (sql: SqlClient.SqlClient): Effect.Effect<Redacted.Redacted<Uint8Array>, RepositoryError> =>
  Effect.gen(function* () {
    yield* sql`
      INSERT INTO credential_keys (kid, key) VALUES ('development', ${new Uint8Array(randomBytes(keyLength))})
      ON CONFLICT (kid) DO NOTHING`
    const [row] = yield* Effect.flatMap(sql`SELECT key FROM credential_keys WHERE kid = 'development'`, decodeKeyRows)
    return row === undefined
      ? yield* Effect.die("credential_keys has no development key after an insert")
      : Redacted.make(row.key)
  }).pipe(asRepository("CredentialCipher.developmentKey"))
