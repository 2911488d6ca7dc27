/**
 * @margin/edge/serving: serving over node:http: requests started on a lean context (ServeLean) and
 * the answers given outside the app (client errors, requests before serving).
 */
export * from "./AnswerOutsideTheApp.ts"
export * from "./AnswerWhileNotServing.ts"
export * from "./ClientErrors.ts"
export * from "./ServeLean.ts"
