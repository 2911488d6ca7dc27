import { Api, openApiPath } from "@margin/rest/api"
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import { RegExp as EffectRegExp, Option, Schema } from "effect"
import { OpenApi } from "effect/http-api"
import type { RecordedReply } from "./RecordedReplies.ts"

/**
 * Checks answers against the OpenAPI document that `Api` generates (the one served at
 * /api/v1/openapi.json), with Ajv and JSON Schema 2020-12 as OpenAPI 3.1 uses it: the operation
 * by method and path template, the response by status (else `default`), the body by its media
 * type, and the response's required headers. An answer of a status its operation does not list
 * is a problem too: the document must name every status an operation can answer.
 */

type Json = Record<string, unknown>

const isRecord = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

const recordOf = (value: unknown): Json => (isRecord(value) ? value : {})

interface Operation {
  readonly method: string
  readonly template: string
  readonly pattern: RegExp
  readonly operation: Json
}

const prefix = "/api/v1/"

/** Answers of the router and the response guard before any operation is chosen: the path names nothing, or not with this method. */
const pathLevelStatuses = new Set([404, 405])

export interface Conformance {
  /** What is wrong with the answer; empty when it conforms (or is not an answer of a documented operation). */
  readonly problemsOf: (reply: RecordedReply) => ReadonlyArray<string>
  /** What is wrong with a request body for the operation (requests are strict). */
  readonly requestProblemsOf: (method: string, template: string, body: unknown) => ReadonlyArray<string>
}

// The router matches paths without regard to case, repeated slashes or a trailing slash.
const normalized = (path: string): string => {
  const bare = (path.split("?")[0] ?? "").replace(/\/{2,}/g, "/")
  return bare.length > 1 && bare.endsWith("/") ? bare.slice(0, -1) : bare
}

export const conformanceOf = (document: Json): Conformance => {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  const components = recordOf(document.components)
  const compiled = new Map<string, ValidateFunction>()
  const validatorOf = (key: string, schema: unknown): ValidateFunction => {
    const known = compiled.get(key)
    if (known !== undefined) return known
    // The components beside the schema, so that its `#/components/...` references resolve.
    const validate = ajv.compile({ ...recordOf(schema), components })
    compiled.set(key, validate)
    return validate
  }
  const errorsOf = (validate: ValidateFunction): string => ajv.errorsText(validate.errors, { separator: "; " })

  const operations: Array<Operation> = Object.entries(recordOf(document.paths)).flatMap(([template, item]) =>
    Object.entries(recordOf(item)).flatMap(([method, operation]) =>
      isRecord(operation)
        ? [
            {
              method: method.toUpperCase(),
              template,
              pattern: new RegExp(`^${EffectRegExp.escape(template).replace(/\\\{[^/]+?\\\}/g, "[^/]+")}$`, "i"),
              operation
            }
          ]
        : []
    )
  )

  /** A path of the API that no operation serves answers the envelope of every `default` response (404, 405). */
  const unmatchedOf = (reply: RecordedReply): Operation | undefined =>
    normalized(reply.path).toLowerCase().startsWith(prefix) && pathLevelStatuses.has(reply.status)
      ? {
          method: reply.method,
          template: "(no operation)",
          pattern: /$^/,
          operation: { responses: { default: defaultResponse } }
        }
      : undefined
  const defaultResponse = {
    headers: { "x-request-id": { required: true, schema: { type: "string" } } },
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } }
  }

  const operationOf = (method: string, path: string): Operation | undefined => {
    const wanted = method === "HEAD" ? "GET" : method
    const bare = normalized(path)
    return operations.find((entry) => entry.method === wanted && entry.pattern.test(bare))
  }

  const problemsOf = (reply: RecordedReply): ReadonlyArray<string> => {
    const found = operationOf(reply.method, reply.path) ?? unmatchedOf(reply)
    if (found === undefined) return []
    const where = `${reply.method} ${reply.path} -> ${reply.status}`
    const responses = recordOf(found.operation.responses)
    const listed = responses[String(reply.status)]
    const problems: Array<string> = []
    if (listed === undefined && !pathLevelStatuses.has(reply.status)) {
      problems.push(`${where}: status ${reply.status} is not among the operation's responses`)
    }
    const response = recordOf(listed ?? responses.default)
    for (const [name, header] of Object.entries(recordOf(response.headers))) {
      const value = reply.headers[name.toLowerCase()]
      if (value === undefined) {
        if (recordOf(header).required === true) problems.push(`${where}: header ${name} is missing`)
        continue
      }
      const validate = validatorOf(
        `${found.method} ${found.template} ${reply.status} header ${name}`,
        recordOf(header).schema
      )
      // A header is text; an integer schema reads it as decimal digits (OpenAPI's simple style).
      const read =
        recordOf(recordOf(header).schema).type === "integer" && /^[0-9]+$/.test(value) ? Number(value) : value
      if (!validate(read)) problems.push(`${where}: header ${name}: ${errorsOf(validate)}`)
    }
    // HEAD answers carry no body.
    if (reply.method === "HEAD") return problems
    const contentType = (reply.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? ""
    const content = recordOf(response.content)
    const media = content[contentType]
    if (media === undefined) {
      if (Object.keys(content).length > 0 || reply.text !== "") {
        problems.push(`${where}: content type "${contentType}" is not among ${Object.keys(content).join(", ")}`)
      }
      return problems
    }
    const json = contentType === "application/json" ? parseJson(reply.text) : Option.some(reply.text)
    if (Option.isNone(json)) return [...problems, `${where}: the body is not JSON: ${reply.text.slice(0, 300)}`]
    const body = json.value
    const validate = validatorOf(
      `${found.method} ${found.template} ${reply.status} ${contentType}`,
      recordOf(media).schema
    )
    if (!validate(body)) problems.push(`${where}: body ${reply.text.slice(0, 300)}: ${errorsOf(validate)}`)
    return problems
  }

  const requestProblemsOf = (method: string, template: string, body: unknown): ReadonlyArray<string> => {
    const found = operations.find((entry) => entry.method === method && entry.template === template)
    const schema = recordOf(recordOf(recordOf(found?.operation.requestBody).content)["application/json"]).schema
    if (schema === undefined) return [`${method} ${template} takes no JSON body`]
    const validate = validatorOf(`${method} ${template} request`, schema)
    return validate(body) ? [] : [errorsOf(validate)]
  }

  return { problemsOf, requestProblemsOf }
}

const parseJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))

let served: Conformance | undefined

/** The conformance of the document the REST server serves (built once per test file). */
export const servedConformance = (): Conformance => {
  served ??= conformanceOf({ ...OpenApi.fromApi(Api) })
  return served
}

/** Every problem of `replies`, the answers of the OpenAPI document itself left out. */
export const problemsOf = (replies: ReadonlyArray<RecordedReply>): ReadonlyArray<string> => {
  const conformance = servedConformance()
  return replies.filter((reply) => normalized(reply.path) !== openApiPath).flatMap(conformance.problemsOf)
}
