/**
 * @margin/edge/serving: serving over node:http: requests started on a lean context (ServeLean) and
 * the answers given outside the app (client errors, requests before serving), the limits on slow
 * and numerous clients (ConnectionLimits), the origin the server names itself by (PublicOrigin).
 */
export * from "./AnswerOutsideTheApp.ts"
export * from "./AnswerWhileNotServing.ts"
export * from "./ClientErrors.ts"
export * from "./ConnectionLimits.ts"
export * from "./PublicOrigin.ts"
export * from "./ServeLean.ts"
