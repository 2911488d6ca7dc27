import { tagPattern } from "@margin/core/catalog/Tag"
import { cursorPattern, defaultPageLimit, maxPageLimit } from "@margin/core/kernel/Page"
import { requestIdHeader } from "@margin/edge/wire"
import { componentExamples } from "./DocumentExamples.ts"

/**
 * The one transform of the generated OpenAPI document (`Api`'s OpenApi.Transform): what
 * OpenApi.fromApi cannot say from the HttpApi definition, said the same way for every operation.
 *
 * - Responses are open, requests strict. The generator closes every object
 *   (`additionalProperties: false`); the contract lets v1 add response fields, so every schema a
 *   response reaches is opened, and those of request bodies stay closed.
 * - The answers of the HTTP layer around the HttpApi (ResponseGuard, Utf8JsonBody): 413 and 500 on
 *   every operation, 415 where there is a body, 503 with Retry-After, a `default` envelope, and
 *   `x-request-id` on every response; the middlewares' 400 and 422 only where there is a body or
 *   a query to fail, token_unusable only on mutations (a middleware declares its errors for its
 *   whole group).
 * - Request headers read outside any endpoint schema: `x-workspace-id` (Authentication) and
 *   `x-request-id`; `limit` as the integer it is (the generator shows a query parameter's encoded
 *   side, a string); a body that may be left out (a payload that accepts `null`) not required.
 *
 * - `request_id` required in every error body; an example on every component that has none
 *   (DocumentExamples.ts).
 * - Response enums open: v1 may add enumeration values, and clients must ignore the ones they do
 *   not know, so an enum of a response is `anyOf: [the known values, any string]` (generators emit
 *   `"a" | "b" | string`); a one-value enum (an error body's `code`) names its schema and stays.
 * - A one-value boolean as `const` (`ok: true`), not `enum: [true]`; `Retry-After` an integer;
 *   the cursor's, a tag's and `snooze_until`'s forms (the decoding side, which the generator
 *   does not show).
 *
 * The error bodies it refers to are components generated from TransportErrors.ts.
 */

type Json = Record<string, unknown>

const isRecord = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

const recordOf = (value: unknown): Json => (isRecord(value) ? value : {})

const componentRef = (name: string): Json => ({ $ref: `#/components/schemas/${name}` })

const componentName = (ref: unknown): string | undefined =>
  typeof ref === "string" && ref.startsWith("#/components/schemas/")
    ? ref.slice("#/components/schemas/".length)
    : undefined

/** Every component a schema refers to, directly or through other components. */
const reachable = (roots: ReadonlyArray<unknown>, components: Json): Set<string> => {
  const found = new Set<string>()
  const stack = [...roots]
  while (stack.length > 0) {
    const value = stack.pop()
    if (Array.isArray(value)) stack.push(...value)
    else if (isRecord(value)) {
      const name = componentName(value.$ref)
      if (name !== undefined && !found.has(name)) {
        found.add(name)
        stack.push(components[name])
      }
      stack.push(...Object.values(value))
    }
  }
  return found
}

/** An enum of strings that v1 may extend: the known values, or any other string. */
const openEnum = (schema: Json): Json => {
  const { type, enum: known, ...rest } = schema
  return {
    ...rest,
    anyOf: [
      { type, enum: known },
      { type: "string", description: "A value added within v1: ignore the ones you do not know." }
    ]
  }
}

const isExtensibleEnum = (schema: Json): boolean =>
  schema.type === "string" && Array.isArray(schema.enum) && schema.enum.length > 1

/**
 * The schema with no object closed to other properties and no enum closed to new values (inline
 * schemas only; references are opened by name).
 */
const opened = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(opened)
  if (!isRecord(schema)) return schema
  if (isExtensibleEnum(schema)) return openEnum(schema)
  const out: Json = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === "additionalProperties" && value === false) continue
    // `examples` are values, not schemas.
    out[key] = key === "examples" ? value : opened(value)
  }
  return out
}

/** `{ type: "boolean", enum: [true] }` as `{ type: "boolean", const: true }`, everywhere (examples left as they are). */
const withConstBooleans = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withConstBooleans)
  if (!isRecord(value)) return value
  if (value.type === "boolean" && Array.isArray(value.enum) && value.enum.length === 1) {
    const { enum: only, ...rest } = value
    return { ...rest, const: only[0] }
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [
      key,
      key === "examples" || key === "example" ? member : withConstBooleans(member)
    ])
  )
}

const tagSchema: Json = {
  type: "string",
  pattern: tagPattern.source,
  description: "1 to 64 characters, without ';', ',' or NUL, not starting or ending with a space"
}

/** The forms the decoding side checks, by query parameter. */
const queryParameterSchemas: Readonly<Record<string, Json>> = {
  cursor: {
    type: "string",
    pattern: cursorPattern.source,
    description: "The next_cursor of the previous page, as it was answered; nothing else."
  },
  tag: tagSchema
}

/** The forms the decoding side checks, by request component and property. */
const requestPropertySchemas: Readonly<Record<string, Readonly<Record<string, Json>>>> = {
  TriggerRun: { subset_tags: { type: "array", items: tagSchema, maxItems: 100 } },
  SnoozeAlert: {
    snooze_until: {
      type: "string",
      format: "date-time",
      description: "An instant in UTC (Z or +00:00) in the future, like 2026-01-31T09:30:00Z."
    }
  }
}

const withPropertySchemas = (name: string, schema: unknown): unknown => {
  const stated = requestPropertySchemas[name]
  if (stated === undefined || !isRecord(schema)) return schema
  return { ...schema, properties: { ...recordOf(schema.properties), ...stated } }
}

const mediaSchemas = (content: unknown): Array<unknown> =>
  Object.values(recordOf(content)).map((media) => recordOf(media).schema)

const errorResponse = (description: string, schemaName: string): Json => ({
  description,
  content: { "application/json": { schema: componentRef(schemaName) } }
})

const header = (description: string, schema: Json): Json => ({ description, required: true, schema })

const requestIdResponseHeader = header(
  "The request's id (the caller's x-request-id when acceptable, else a fresh UUID); request_id in an error body.",
  { type: "string" }
)

/** Headers every answer of a status carries, beside x-request-id. */
const statusHeaders: Readonly<Record<string, Json>> = {
  "401": { "www-authenticate": header('Always Bearer realm="api".', { type: "string" }) },
  "503": {
    "retry-after": header("Whole seconds to wait before retrying (5 for the database, 1 while starting or stopping).", {
      type: "integer",
      minimum: 0
    })
  }
}

/** Retry-After is delta-seconds (RFC 9110 10.2.3) wherever it is declared (the 429's comes from its error). */
const withIntegerRetryAfter = (headers: Json): Json =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) =>
      name.toLowerCase() === "retry-after" && isRecord(value)
        ? [name, { ...value, schema: { type: "integer", minimum: 0 } }]
        : [name, value]
    )
  )

const requestIdParameter: Json = {
  name: requestIdHeader,
  in: "header",
  required: false,
  description:
    "Your own id for the request (1 to 128 characters of A-Z a-z 0-9 . _ : @ / + = -), used in the answer and every log line of the request instead of a generated UUID.",
  schema: { type: "string", pattern: "^[A-Za-z0-9._:@/+=-]{1,128}$" }
}

const workspaceParameter: Json = {
  name: "x-workspace-id",
  in: "header",
  required: false,
  description:
    "The workspace to act in. A session JWT of a user in several workspaces must name one; an API token may omit it, or must name its own workspace.",
  schema: { type: "string" }
}

const limitSchema: Json = { type: "integer", minimum: 1, maximum: maxPageLimit, default: defaultPageLimit }

const withParameters = (operation: Json): Array<unknown> => {
  const declared = Array.isArray(operation.parameters) ? operation.parameters : []
  const parameters = declared.map((parameter) => {
    if (!isRecord(parameter) || parameter.in !== "query") return parameter
    if (parameter.name === "limit") {
      return {
        ...parameter,
        description: `Page size, ${limitSchema.minimum} to ${maxPageLimit} (default ${defaultPageLimit}), in decimal digits.`,
        schema: limitSchema
      }
    }
    const stated = typeof parameter.name === "string" ? queryParameterSchemas[parameter.name] : undefined
    return stated === undefined ? parameter : { ...parameter, schema: stated }
  })
  const authenticated = Array.isArray(operation.security) && operation.security.length > 0
  return [...parameters, ...(authenticated ? [workspaceParameter] : []), requestIdParameter]
}

const acceptsNull = (schema: unknown): boolean =>
  isRecord(schema) &&
  (schema.type === "null" || (Array.isArray(schema.anyOf) && schema.anyOf.some((member) => acceptsNull(member))))

const withRequestBody = (body: unknown): Json | undefined => {
  if (!isRecord(body)) return undefined
  // A payload that accepts null may be left out: HttpApi reads an absent body as null.
  const optional = mediaSchemas(body.content).some(acceptsNull)
  return optional ? { ...body, required: false, description: "Optional: no body, null and {} mean the same." } : body
}

const statusOrder = (status: string): number => (status === "default" ? 1000 : Number(status))

/** The response without the component `name` among its bodies; undefined when nothing is left. */
const withoutBody = (response: unknown, name: string): Json | undefined => {
  if (!isRecord(response)) return undefined
  const target = `#/components/schemas/${name}`
  const content = Object.fromEntries(
    Object.entries(recordOf(response.content)).flatMap(([type, media]) => {
      const schema = recordOf(recordOf(media).schema)
      if (schema.$ref === target) return []
      if (!Array.isArray(schema.anyOf)) return [[type, media]]
      const rest = schema.anyOf.filter((member) => recordOf(member).$ref !== target)
      return [[type, { ...recordOf(media), schema: rest.length === 1 ? rest[0] : { ...schema, anyOf: rest } }]]
    })
  )
  if (Object.keys(content).length === 0) return undefined
  const description =
    typeof response.description === "string"
      ? response.description
          .split(" | ")
          .filter((part) => `${part}Error` !== name)
          .join(" | ")
      : response.description
  return { ...response, description, content }
}

const withResponses = (operation: Json, hasBody: boolean, mutation: boolean): Json => {
  // Path parameters are any text (an id that does not exist is a 404): only a body or a query can fail validation.
  const hasInput =
    hasBody ||
    (Array.isArray(operation.parameters) &&
      operation.parameters.some((parameter) => recordOf(parameter).in === "query"))
  const responses: Json = { ...recordOf(operation.responses) }
  // The middlewares declare their errors for every endpoint of a group; only some can fail so:
  // 400 and 422 need a body or a query (RequestValidation), token_unusable a mutation (Authentication).
  for (const [status, name, applies] of [
    ["400", "BadRequestError", hasBody],
    ["422", "ValidationFailedError", hasInput],
    ["403", "TokenUnusableError", mutation]
  ] as const) {
    if (applies || responses[status] === undefined) continue
    const kept = withoutBody(responses[status], name)
    if (kept === undefined) delete responses[status]
    else responses[status] = kept
  }
  if (hasBody) {
    responses["415"] = errorResponse(
      "The body is not application/json, or declares a charset other than UTF-8.",
      "UnsupportedMediaTypeError"
    )
  }
  responses["413"] = errorResponse("The body is above the server's limit (1 MiB by default).", "PayloadTooLargeError")
  responses["500"] = errorResponse("A fault on our side, logged under the request id.", "InternalError")
  responses["503"] ??= errorResponse(
    "The service is starting or stopping, or its database did not answer.",
    "RepositoryErrorError"
  )
  responses.default = errorResponse("Any other error (405 with Allow, 408, 431...), in the same envelope.", "Error")
  const ordered = Object.keys(responses).sort((a, b) => statusOrder(a) - statusOrder(b))
  return Object.fromEntries(
    ordered.map((status) => {
      const response = recordOf(responses[status])
      return [
        status,
        {
          ...response,
          headers: withIntegerRetryAfter({
            ...recordOf(response.headers),
            ...statusHeaders[status],
            [requestIdHeader]: requestIdResponseHeader
          })
        }
      ]
    })
  )
}

const withOperation = (method: string, operation: Json): Json => {
  const requestBody = withRequestBody(operation.requestBody)
  const { requestBody: _, ...rest } = operation
  return {
    ...rest,
    parameters: withParameters(operation),
    ...(requestBody === undefined ? {} : { requestBody }),
    responses: withResponses(operation, requestBody !== undefined, method !== "get")
  }
}

/**
 * An error body always has its request_id: the front door adds it after the body is encoded
 * (withRequestId), so the encoding schema cannot require it, and the document does.
 */
const withRequestIdRequired = (schema: unknown): unknown => {
  if (!isRecord(schema) || !isRecord(schema.properties) || schema.properties.request_id === undefined) return schema
  const required = Array.isArray(schema.required) ? schema.required : []
  return required.includes("request_id") ? schema : { ...schema, required: [...required, "request_id"] }
}

const withExample = (name: string, schema: unknown): unknown => {
  const example = componentExamples[name]
  return isRecord(schema) && schema.examples === undefined && example !== undefined
    ? { ...schema, examples: [example] }
    : schema
}

const methods = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"])

export const documentTransform = (spec: Record<string, unknown>): Record<string, unknown> => {
  const paths = Object.fromEntries(
    Object.entries(recordOf(spec.paths)).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(recordOf(item)).map(([method, operation]) => [
          method,
          methods.has(method) && isRecord(operation) ? withOperation(method, operation) : operation
        ])
      )
    ])
  )
  const components = recordOf(spec.components)
  const schemas = recordOf(components.schemas)
  const operations = Object.values(paths).flatMap((item) => Object.values(item).filter(isRecord))
  const requestSide = reachable(
    operations.map((operation) => mediaSchemas(recordOf(operation.requestBody).content)),
    schemas
  )
  const responseSide = reachable(
    operations.flatMap((operation) => Object.values(recordOf(operation.responses)).map((r) => recordOf(r).content)),
    schemas
  )
  const openPaths = Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) => [
          method,
          isRecord(operation) ? { ...operation, responses: opened(operation.responses) } : operation
        ])
      )
    ])
  )
  const openSchemas = Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [
      name,
      withExample(
        name,
        // A component both sides use stays closed: a request must not send what v1 does not know.
        responseSide.has(name) && !requestSide.has(name)
          ? withRequestIdRequired(opened(schema))
          : withPropertySchemas(name, schema)
      )
    ])
  )
  const document: Json = { ...spec, paths: openPaths, components: { ...components, schemas: openSchemas } }
  return Object.fromEntries(Object.entries(document).map(([key, value]) => [key, withConstBooleans(value)]))
}
