/**
 * Characters no OAuth parameter, registration field or sign-in field may hold: the C0 and C1
 * controls and DEL (NUL, which PostgreSQL text cannot store; CR and LF, which split a header), the
 * line and paragraph separators (U+2028, U+2029), and the bidirectional controls (U+061C, U+200E,
 * U+200F, U+202A-U+202E, U+2066-U+2069), which reorder what a page shows (a client named
 * `Evil\u202Eelgoog` reads as "Evilgoogle" backwards).
 */
const isUnsafe = (code: number): boolean =>
  code < 0x20 ||
  (code >= 0x7f && code <= 0x9f) ||
  code === 0x061c ||
  code === 0x200e ||
  code === 0x200f ||
  code === 0x2028 ||
  code === 0x2029 ||
  (code >= 0x202a && code <= 0x202e) ||
  (code >= 0x2066 && code <= 0x2069)

/** `U+202E`: how a refusal names a character without writing it. */
const codePointName = (code: number): string => `U+${code.toString(16).toUpperCase().padStart(4, "0")}`

/**
 * The first character of `text` that is not allowed (`isUnsafe`), or a lone surrogate (no UTF-8
 * form), named as `U+XXXX`; undefined when the text is clean.
 */
export const unsafeCharacterIn = (text: string): string | undefined => {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0
    if (isUnsafe(code) || (code >= 0xd800 && code <= 0xdfff)) return codePointName(code)
  }
  return undefined
}

/** `text` without the characters `unsafeCharacterIn` names: a claim a page shows as it reads. */
export const displayable = (text: string): string =>
  Array.from(text)
    .filter((char) => {
      const code = char.codePointAt(0) ?? 0
      return !isUnsafe(code) && !(code >= 0xd800 && code <= 0xdfff)
    })
    .join("")
