import { createHash, randomBytes } from "node:crypto"
import { tokenPrefix } from "@margin/core/access/ApiToken"

/**
 * The secret of an API token: `pck_` + 32 random bytes in base64url. Only `hashTokenSecret` of it
 * is stored, so whoever creates tokens (CLI) and whoever checks them (REST, MCP) must use these.
 */
export const generateTokenSecret = (): string => `${tokenPrefix}${randomBytes(32).toString("base64url")}`

/** Hex SHA-256 of the whole secret, prefix included: the lookup key of `TokenRepository.findBySecretHash`. */
export const hashTokenSecret = (secret: string): string => createHash("sha256").update(secret, "utf8").digest("hex")

export const isTokenSecret = (credential: string): boolean => credential.startsWith(tokenPrefix)
