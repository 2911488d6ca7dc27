import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens
} from "@modelcontextprotocol/sdk/shared/auth.js"
import { Effect } from "effect"

/** How a test agent differs from the default one. */
export interface AgentShape {
  /** Registration metadata of a stock client (its name, redirect URIs, grant types). */
  readonly metadata?: Partial<OAuthClientMetadata>
  /**
   * false: the agent keeps no refresh token. SDK 1.32.2's step-up (a 403 insufficient_scope)
   * refreshes when it holds one, which cannot widen a grant, and then gives up
   * (modelcontextprotocol/typescript-sdk#2255); without one it asks the user, as it should.
   */
  readonly keepsRefreshToken?: boolean
}

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
  private readonly shape: AgentShape

  constructor(redirect: string, shape: AgentShape = {}) {
    this.redirect = redirect
    this.shape = shape
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
      token_endpoint_auth_method: "none",
      ...this.shape.metadata
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
    if (this.shape.keepsRefreshToken === false) {
      const { refresh_token: _dropped, ...kept } = tokens
      this.saved = kept
    } else {
      this.saved = tokens
    }
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

const agentInfo = { name: "sdk-oauth-agent", version: "1.0.0" }

/**
 * The SDK client's first connect, without tokens: it discovers the servers, registers, and hands
 * the provider the authorization URL to open. Answers what the connect failed with.
 */
export const requestAuthorization = (url: URL, provider: MemoryOAuthProvider) =>
  Effect.promise(() =>
    new Client(agentInfo).connect(new StreamableHTTPClientTransport(url, { authProvider: provider })).then(
      () => undefined,
      (error: unknown) => error
    )
  )

/** The code from the redirect, handed to the SDK, which redeems it and saves the tokens. */
export const finishAuthorization = (url: URL, provider: MemoryOAuthProvider, code: string) =>
  Effect.promise(() => new StreamableHTTPClientTransport(url, { authProvider: provider }).finishAuth(code))

/** The SDK client connected with the provider's tokens, closed with the scope. */
export const connected = (url: URL, provider: MemoryOAuthProvider) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client(agentInfo)
      await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }))
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )
