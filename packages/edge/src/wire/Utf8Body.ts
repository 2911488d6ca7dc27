import { Option } from "effect"

/**
 * What both front doors require of a JSON body before it is decoded: UTF-8. The servers' decoders
 * replace bytes that are not UTF-8 with U+FFFD and read every declared charset as UTF-8, which would
 * silently store something the client did not send (REST: docs/api.md, MCP: docs/mcp.md).
 */

const utf8Names = new Set(["utf-8", "utf8"])

/** The `charset` parameter of a content type, lower case and unquoted; undefined without one. */
export const charsetOf = (contentType: string): string | undefined => {
  for (const parameter of contentType.split(";").slice(1)) {
    const equals = parameter.indexOf("=")
    if (equals < 0 || parameter.slice(0, equals).trim().toLowerCase() !== "charset") continue
    return parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1")
      .toLowerCase()
  }
  return undefined
}

/** Whether a content type declares a charset other than UTF-8 (none declared: UTF-8). */
export const declaresOtherCharset = (contentType: string): boolean => {
  const charset = charsetOf(contentType)
  return charset !== undefined && !utf8Names.has(charset)
}

const fatalUtf8 = new TextDecoder("utf-8", { fatal: true })

/** The bytes as UTF-8 text; none when they are not UTF-8. */
export const utf8Text = (bytes: ArrayBuffer): Option.Option<string> =>
  Option.liftThrowable(() => fatalUtf8.decode(bytes))()
