/**
 * @margin/client: a typed client of the REST API v1, derived from its definition
 * (`@margin/rest/api`) with Effect's HttpApiClient. Two faces: `MarginClient` (Effect) and
 * `createClient` (promises). docs/client.md.
 */
export {
  type AnyApiError,
  ApiError,
  type ApiErrorCode,
  apiErrorCodes,
  InsufficientScopeError,
  isApiError,
  type PlainApiErrorCode,
  RateLimitedError,
  ServiceUnavailableError,
  ValidationError
} from "./ApiError.ts"
export type { ClientConfig } from "./ClientConfig.ts"
export { InvalidRequest, TimeoutError, TransportError, UnexpectedResponse } from "./ClientError.ts"
export {
  type AlertListQuery,
  type CatalogItemListQuery,
  type ItemOf,
  type ListName,
  MarginClient,
  type MarginClientShape,
  type PageQuery,
  type RecommendationListQuery,
  type RejectBody,
  type RunListQuery,
  type SnoozeBody,
  type TriggerRunBody,
  type TriggerRunOptions
} from "./MarginClient.ts"
export { isMarginError, type MarginError } from "./MarginError.ts"
export { type CallOptions, createClient, type PromiseClient } from "./PromiseClient.ts"
