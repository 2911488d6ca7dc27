/** RFC 5322 section 2.1.1: a line is at most 998 octets, without its CRLF. */
const maxLineOctets = 998

const headerEnd = Buffer.from("\r\n\r\n")

/**
 * A composed single-part text message with its body as the text itself, so that the `.eml` file
 * reads as the mail does: a link in it stays on one line and can be copied from the file. The
 * composer (nodemailer) quoted-printable encodes any text with a line over 76 characters, which
 * breaks a link at `=` soft line breaks and writes its `=` as `=3D`. The body becomes 7bit (8bit
 * when it holds non-ASCII), lines ended by CRLF: valid RFC 5322 as long as every line fits 998
 * octets. A message that is not single-part text, or whose text has a longer line, is kept as
 * composed.
 */
export const readableEml = (composed: Buffer, text: string): Buffer => {
  const lines = text.replace(/\r\n?/g, "\n").split("\n")
  if (lines.some((line) => Buffer.byteLength(line, "utf8") > maxLineOctets)) return composed
  const end = composed.indexOf(headerEnd)
  if (end < 0) return composed
  const head = composed.subarray(0, end).toString("latin1")
  if (!/^Content-Type: text\/plain/im.test(head) || !/^Content-Transfer-Encoding: /im.test(head)) return composed
  // Every character beyond ASCII takes more UTF-8 bytes than UTF-16 units.
  const ascii = Buffer.byteLength(text, "utf8") === text.length
  const readableHead = head.replace(
    /^Content-Transfer-Encoding: .*$/im,
    `Content-Transfer-Encoding: ${ascii ? "7bit" : "8bit"}`
  )
  return Buffer.concat([Buffer.from(`${readableHead}\r\n\r\n`, "latin1"), Buffer.from(lines.join("\r\n"), "utf8")])
}
