import { type Effect, ManagedRuntime } from "effect"
import type { ClientConfig } from "./ClientConfig.ts"
import { MarginClient, type MarginClientShape } from "./MarginClient.ts"

type Promised<F> = F extends (...args: infer P) => Effect.Effect<infer A, infer _E, infer _R>
  ? (...args: P) => Promise<A>
  : never

/**
 * The client for code without Effect: the same operations as `MarginClient`, as async functions.
 * A call resolves with the answer's body, typed as the API defines it, and rejects with a
 * `MarginError` (`isMarginError`): narrow the contract's errors by `code`.
 */
export type PromiseClient = { readonly [K in keyof MarginClientShape]: Promised<MarginClientShape[K]> } & {
  /** Releases the client's resources; calls after it fail. */
  readonly close: () => Promise<void>
}

/** A promise client on the platform's `fetch`. */
export const createClient = (config: ClientConfig): PromiseClient => {
  const runtime = ManagedRuntime.make(MarginClient.layerFetch(config))
  const run = <A, E>(call: (client: MarginClientShape) => Effect.Effect<A, E>): Promise<A> =>
    runtime.runPromise(MarginClient.use(call))
  return {
    listRuns: (query) => run((client) => client.listRuns(query)),
    triggerRun: (body) => run((client) => client.triggerRun(body)),
    getRun: (id) => run((client) => client.getRun(id)),
    listRecommendations: (query) => run((client) => client.listRecommendations(query)),
    getRecommendation: (id) => run((client) => client.getRecommendation(id)),
    acceptRecommendation: (id) => run((client) => client.acceptRecommendation(id)),
    dismissRecommendation: (id) => run((client) => client.dismissRecommendation(id)),
    approveRecommendation: (id) => run((client) => client.approveRecommendation(id)),
    rejectRecommendation: (id, body) => run((client) => client.rejectRecommendation(id, body)),
    listAlerts: (query) => run((client) => client.listAlerts(query)),
    getAlert: (id) => run((client) => client.getAlert(id)),
    snoozeAlert: (id, body) => run((client) => client.snoozeAlert(id, body)),
    resolveAlert: (id) => run((client) => client.resolveAlert(id)),
    dismissAlert: (id) => run((client) => client.dismissAlert(id)),
    listCatalogItems: (query) => run((client) => client.listCatalogItems(query)),
    importCatalog: (file, options) => run((client) => client.importCatalog(file, options)),
    getCatalogImport: (id) => run((client) => client.getCatalogImport(id)),
    exportReport: (options) => run((client) => client.exportReport(options)),
    getWorkspaceStatus: () => run((client) => client.getWorkspaceStatus()),
    healthz: () => run((client) => client.healthz()),
    readyz: () => run((client) => client.readyz()),
    close: () => runtime.dispose()
  }
}
