/**
 * PKCE (RFC 7636), S256 only: the plain method lets anyone who saw the authorization request
 * redeem its code, so it is refused. Hashing is the caller's (core does no cryptography): it passes
 * the base64url SHA-256 function it trusts.
 */

/** 43 to 128 characters of the unreserved set: the verifier RFC 7636 section 4.1 allows. */
const verifierPattern = /^[A-Za-z0-9\-._~]{43,128}$/

/** base64url of a SHA-256 digest, unpadded: always 43 characters. */
const s256ChallengePattern = /^[A-Za-z0-9_-]{43}$/

export const isCodeVerifier = (verifier: string): boolean => verifierPattern.test(verifier)

export const isS256Challenge = (challenge: string): boolean => s256ChallengePattern.test(challenge)

/** True when `verifier` is well formed and its S256 transform is `challenge`. */
export const pkceMatches = (challenge: string, verifier: string, sha256Base64Url: (input: string) => string): boolean =>
  isCodeVerifier(verifier) && isS256Challenge(challenge) && sha256Base64Url(verifier) === challenge
