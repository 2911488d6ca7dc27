/**
 * The header a request id arrives in and is answered in. Here, not beside the id's generator
 * (telemetry/RequestId.ts, which loads node:crypto), so that the API definition can name it in the
 * OpenAPI document and still bundle for a browser.
 */
export const requestIdHeader = "x-request-id"
