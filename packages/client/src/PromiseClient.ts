import { type Effect, ManagedRuntime } from "effect"
import type { ClientConfig } from "./ClientConfig.ts"
import { type ItemOf, type ListName, MarginClient, type MarginClientShape, type PageQuery } from "./MarginClient.ts"
import { cursorField, type PageOf } from "./Paginate.ts"

/** Per call: `signal` abandons the call (its request is aborted; the promise rejects with the signal's reason, as fetch does). */
export interface CallOptions {
  readonly signal?: AbortSignal
}

type Methods = Omit<MarginClientShape, "paginate">

type Promised<F> = F extends (...args: infer P) => Effect.Effect<infer A, infer _E, infer _R>
  ? (...args: [...P, options?: CallOptions]) => Promise<A>
  : never

/**
 * The client for code without Effect: the same operations as `MarginClient`, as async functions.
 * A call resolves with the answer's body, typed as the API defines it, and rejects with a
 * `MarginError` (`isMarginError`): narrow the contract's errors by `code`.
 */
export type PromiseClient = { readonly [K in keyof Methods]: Promised<Methods[K]> } & {
  /**
   * Every item of a list, page after page (`next_cursor` followed until null), fetched as the
   * loop asks: `for await (const item of margin.paginate("listRecommendations", { status: "new" }))`.
   */
  readonly paginate: <K extends ListName>(
    list: K,
    query?: PageQuery<K>,
    options?: CallOptions
  ) => AsyncGenerator<ItemOf<K>, void, undefined>
  /** Releases the client's resources; calls after it fail. */
  readonly close: () => Promise<void>
}

type PageCalls = {
  readonly [K in ListName]: (
    query: PageQuery<K> | undefined,
    cursor: string | undefined,
    options: CallOptions | undefined
  ) => Promise<PageOf<ItemOf<K>>>
}

/** A promise client on `fetch` (the platform's, or `config.fetch`). */
export const createClient = (config: ClientConfig): PromiseClient => {
  const runtime = ManagedRuntime.make(MarginClient.layerFetch(config))
  const run = <A, E>(call: (client: MarginClientShape) => Effect.Effect<A, E>, options?: CallOptions): Promise<A> => {
    const signal = options?.signal
    if (signal === undefined) return runtime.runPromise(MarginClient.use(call))
    // Already aborted: nothing is sent, as fetch does.
    if (signal.aborted) return Promise.reject(signal.reason)
    return runtime.runPromise(MarginClient.use(call), { signal }).catch((error: unknown) => {
      throw signal.aborted ? signal.reason : error
    })
  }
  const pages: PageCalls = {
    listRuns: (query, cursor, options) =>
      run((client) => client.listRuns({ ...query, ...cursorField(cursor) }), options),
    listRecommendations: (query, cursor, options) =>
      run((client) => client.listRecommendations({ ...query, ...cursorField(cursor) }), options),
    listAlerts: (query, cursor, options) =>
      run((client) => client.listAlerts({ ...query, ...cursorField(cursor) }), options),
    listCatalogItems: (query, cursor, options) =>
      run((client) => client.listCatalogItems({ ...query, ...cursorField(cursor) }), options)
  }
  async function* paginate<K extends ListName>(
    list: K,
    query?: PageQuery<K>,
    options?: CallOptions
  ): AsyncGenerator<ItemOf<K>, void, undefined> {
    let cursor: string | undefined
    do {
      const page = await pages[list](query, cursor, options)
      yield* page.data
      cursor = page.next_cursor ?? undefined
    } while (cursor !== undefined)
  }
  return {
    listRuns: (query, options) => run((client) => client.listRuns(query), options),
    triggerRun: (body, trigger, options) => run((client) => client.triggerRun(body, trigger), options),
    getRun: (id, options) => run((client) => client.getRun(id), options),
    listRecommendations: (query, options) => run((client) => client.listRecommendations(query), options),
    getRecommendation: (id, options) => run((client) => client.getRecommendation(id), options),
    acceptRecommendation: (id, options) => run((client) => client.acceptRecommendation(id), options),
    dismissRecommendation: (id, options) => run((client) => client.dismissRecommendation(id), options),
    approveRecommendation: (id, options) => run((client) => client.approveRecommendation(id), options),
    rejectRecommendation: (id, body, options) => run((client) => client.rejectRecommendation(id, body), options),
    undoPriceChange: (id, options) => run((client) => client.undoPriceChange(id), options),
    listAlerts: (query, options) => run((client) => client.listAlerts(query), options),
    getAlert: (id, options) => run((client) => client.getAlert(id), options),
    snoozeAlert: (id, body, options) => run((client) => client.snoozeAlert(id, body), options),
    resolveAlert: (id, options) => run((client) => client.resolveAlert(id), options),
    dismissAlert: (id, options) => run((client) => client.dismissAlert(id), options),
    listCatalogItems: (query, options) => run((client) => client.listCatalogItems(query), options),
    importCatalog: (file, importOptions, options) =>
      run((client) => client.importCatalog(file, importOptions), options),
    getCatalogImport: (id, options) => run((client) => client.getCatalogImport(id), options),
    startStoreSync: (options) => run((client) => client.startStoreSync(), options),
    getStoreSync: (id, options) => run((client) => client.getStoreSync(id), options),
    exportReport: (format, options) => run((client) => client.exportReport(format), options),
    getWorkspaceStatus: (options) => run((client) => client.getWorkspaceStatus(), options),
    healthz: (options) => run((client) => client.healthz(), options),
    readyz: (options) => run((client) => client.readyz(), options),
    paginate,
    close: () => runtime.dispose()
  }
}
