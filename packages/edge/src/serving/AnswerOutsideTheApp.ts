import type { Server } from "node:http"
import { answerWhileNotServing, type NotServingOptions } from "./AnswerWhileNotServing.ts"
import { answerClientErrors } from "./ClientErrors.ts"

/**
 * What every HTTP port of ours answers without its app: the error envelope for what is not HTTP
 * (ClientErrors) and 503 while the app does not serve yet or any more (AnswerWhileNotServing, with
 * CORS for `corsOrigins`). The one place the three servers (REST, MCP alone, the worker's
 * operations port) get both.
 */
export const answerOutsideTheApp = <S extends Server>(server: S, options: NotServingOptions = {}): S =>
  answerClientErrors(answerWhileNotServing(server, options))
