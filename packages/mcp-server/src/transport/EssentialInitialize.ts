import { Predicate } from "effect"

/** The client capabilities the protocol acts on; others (`experimental`, unknown ones) change nothing here. */
const knownCapabilities = ["roots", "sampling", "elicitation", "tasks"]

/** Fields of `clientInfo` a session is told by: who the client is. Icons, descriptions and URLs are not needed. */
const identityFields = ["name", "version", "title"]

/** Longest name, version or title kept: enough for any real client's. */
export const maxIdentityLength = 256

const pick = (record: object, keys: ReadonlyArray<string>, shorten: (value: unknown) => unknown) =>
  Object.fromEntries(
    keys.flatMap((key) => (Object.hasOwn(record, key) ? [[key, shorten(Reflect.get(record, key))]] : []))
  )

const shortened = (value: unknown) => (typeof value === "string" ? value.slice(0, maxIdentityLength) : value)

/**
 * An initialize message with only what its session needs (Effect's MCP server keeps the whole
 * payload as long as the session lives): the revision, the client's name, version and title (at
 * most `maxIdentityLength` characters each) and its known capabilities. Anything else, and any
 * message that is not an initialize with object params, answers `undefined` (passed on as sent:
 * the MCP server decides about it).
 */
export const essentialInitialize = (message: unknown): object | undefined => {
  if (!Predicate.isObject(message) || Reflect.get(message, "method") !== "initialize") return undefined
  const params: unknown = Reflect.get(message, "params")
  if (!Predicate.isObject(params)) return undefined
  const clientInfo: unknown = Reflect.get(params, "clientInfo")
  const capabilities: unknown = Reflect.get(params, "capabilities")
  return {
    ...pick(message, ["jsonrpc", "id", "method"], (value) => value),
    params: {
      ...pick(params, ["protocolVersion"], (value) => value),
      ...(Predicate.isObject(capabilities)
        ? { capabilities: pick(capabilities, knownCapabilities, (value) => value) }
        : Object.hasOwn(params, "capabilities")
          ? { capabilities }
          : {}),
      ...(Predicate.isObject(clientInfo)
        ? { clientInfo: pick(clientInfo, identityFields, shortened) }
        : Object.hasOwn(params, "clientInfo")
          ? { clientInfo }
          : {})
    }
  }
}
