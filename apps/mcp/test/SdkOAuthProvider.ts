import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens
} from "@modelcontextprotocol/sdk/shared/auth.js"

/**
 * The official SDK's OAuth client provider, kept in memory as an agent keeps it: its registration,
 * its tokens, the PKCE verifier of the pending request, and the authorization URL it was told to
 * open (a test opens it in a browser, or follows its forms).
 */
export class MemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined
  private information: OAuthClientInformationMixed | undefined
  private saved: OAuthTokens | undefined
  private verifier: string | undefined

  private readonly redirect: string

  constructor(redirect: string) {
    this.redirect = redirect
  }

  get redirectUrl(): string {
    return this.redirect
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "SDK test agent",
      redirect_uris: [this.redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none"
    }
  }

  state(): string {
    return "sdk-state-1"
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.information
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.information = information
  }

  tokens(): OAuthTokens | undefined {
    return this.saved
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrl = authorizationUrl
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error("no PKCE verifier saved")
    return this.verifier
  }
}
