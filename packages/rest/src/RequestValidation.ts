import { HttpApiMiddleware } from "effect/http-api"
import { BadRequestError, ValidationFailedError } from "./ApiErrors.ts"

/**
 * Turns request decoding failures into the contract's errors: a body that is not JSON is 400
 * `bad_request`; a body or query that fails its schema is 422 `validation_error`, one issue per
 * field (the API parses with `errors: "all"`). A response that fails to encode stays a defect (500).
 * Its server side is RequestValidationLayer.ts: this file is part of the definition a client
 * imports (`@margin/rest/api`).
 */
export class RequestValidation extends HttpApiMiddleware.Service<RequestValidation>()("margin/http/RequestValidation", {
  error: [BadRequestError, ValidationFailedError]
}) {}
