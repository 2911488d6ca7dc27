import { Result, Schema } from "effect"
import { CurrencyCode, formatMajorUnits } from "../kernel/Money.ts"
import type { CatalogItemInput } from "./CatalogItem.ts"
import type { CatalogPatch } from "./CatalogPatch.ts"
import { Tag } from "./Tag.ts"

/**
 * The catalog import format, one item per line, parsed line by line so that a file of any size
 * streams through in bounded memory (a field therefore never spans lines).
 *
 * CSV: a header line naming the columns, then one item per line. Fields are separated by `,`;
 * a field holding `,` or `"` is quoted (`"a, b"`, `"say ""hi"""`). JSONL: one JSON object per line
 * with the same keys. `tags` are separated by `;` (JSONL also takes an array of strings); amounts
 * are decimal strings in major units of the item's currency (`12.99`, JSONL also takes numbers).
 * Blank lines are skipped.
 *
 * A line says only what it mentions (CatalogPatch): a column the file has not (a key the line has
 * not), or an empty cell, leaves the item's field as it is. Clearing is explicit: the cell `null`
 * (JSONL: the value null) clears a field that may be unknown (`clearableColumns`); the others cannot
 * be cleared. Only `sku` is required of every line; a sku the catalog has not yet also needs
 * `title`, `currency` and `price` (CatalogImportDecision). `observed_at` (ISO 8601 with a zone) says
 * when the line's price was in force; left out, the time of the import.
 */
export const catalogColumns = [
  "sku",
  "title",
  "tags",
  "currency",
  "price",
  "cost",
  "compare_at_price",
  "min_price",
  "max_price",
  "inventory",
  "units_sold_30d",
  "store_product_ref",
  "store_variant_ref",
  "competitor_price",
  "observed_at"
] as const
export type CatalogColumn = (typeof catalogColumns)[number]

/** Columns a CSV header must name; the others may be left out (kept as the items have them). */
export const requiredCatalogColumns: ReadonlyArray<CatalogColumn> = ["sku"]

/** Columns whose value may be unknown: the cell `null` (JSONL null) clears them (tags: no tags). */
export const clearableColumns: ReadonlyArray<CatalogColumn> = [
  "tags",
  "cost",
  "compare_at_price",
  "min_price",
  "max_price",
  "inventory",
  "store_product_ref",
  "store_variant_ref",
  "competitor_price"
]

/** The CSV cell that clears a clearable column (any case). */
export const clearCell = "null"

export type CatalogFormat = "csv" | "jsonl"

/** What one line of the file gave. */
export type CatalogLine =
  | { readonly _tag: "Item"; readonly line: number; readonly patch: CatalogPatch }
  | { readonly _tag: "Rejected"; readonly line: number; readonly error: string }
  | { readonly _tag: "Blank"; readonly line: number }

/** Turns the text of line `line` (1-based, without its line break) into a patch or a reason. */
export type CatalogLineParser = (text: string, line: number) => CatalogLine

/** The format a file name announces: `.csv` or `.jsonl` / `.ndjson`. */
export const formatOfFileName = (fileName: string): Result.Result<CatalogFormat, string> => {
  const lower = fileName.toLowerCase()
  if (lower.endsWith(".csv")) return Result.succeed("csv")
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return Result.succeed("jsonl")
  return Result.fail(`cannot tell the format of "${fileName}": name it .csv or .jsonl`)
}

/**
 * One line's cells before validation: undefined = not mentioned (no such column or key),
 * null = cleared, text = the cell as written. Tags come split.
 */
type RawLine = { readonly [C in Exclude<CatalogColumn, "tags">]?: string | null } & {
  readonly tags?: ReadonlyArray<string> | null
}

type Writable<T> = { -readonly [K in keyof T]: T[K] }

const maxSkuLength = 128
const maxStoreRefLength = 255
const integerPattern = /^-?\d+$/
const amountPattern = /^\d+(\.\d+)?$/
/** ISO 8601 with a date, a time and a zone (`Z` or `+02:00`): a time without a zone means nothing here. */
const instantPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i
/**
 * Memoizes a decoder of the few distinct values a catalog repeats on every line (currencies,
 * tags): a schema decode costs more than the rest of the line. Bounded, so a file of unique
 * values cannot grow it without limit.
 */
const memoized = <A>(decode: (text: string) => Result.Result<A, unknown>, capacity: number) => {
  const known = new Map<string, Result.Result<A, unknown>>()
  return (text: string): Result.Result<A, unknown> => {
    const cached = known.get(text)
    if (cached !== undefined) return cached
    const result = decode(text)
    if (known.size < capacity) known.set(text, result)
    return result
  }
}

const decodeCurrency = memoized(Schema.decodeUnknownResult(CurrencyCode), 1000)
const decodeTag = memoized(Schema.decodeUnknownResult(Tag), 10_000)

const rejected = (line: number, error: string): CatalogLine => ({ _tag: "Rejected", line, error })

const cannotClear = (column: CatalogColumn): string =>
  `${column} cannot be cleared; leave the ${column} cell empty (or the key out) to keep it`

/** The cell's text when it says something: undefined when it is missing or empty. */
const mentioned = (cell: string | null | undefined): string | null | undefined => {
  if (cell === undefined || cell === null) return cell
  const trimmed = cell.trim()
  return trimmed === "" ? undefined : trimmed
}

const integer = (column: CatalogColumn, text: string, minimum: number | null): Result.Result<number, string> => {
  const value = Number(text)
  if (!integerPattern.test(text) || !Number.isSafeInteger(value)) {
    return Result.fail(`${column}: "${text}" is not a whole number`)
  }
  return minimum !== null && value < minimum
    ? Result.fail(`${column}: ${value} is below ${minimum}`)
    : Result.succeed(value)
}

const parseTags = (texts: ReadonlyArray<string>): Result.Result<Array<Tag>, string> => {
  const tags: Array<Tag> = []
  for (const text of texts) {
    const trimmed = text.trim()
    if (trimmed === "") continue
    const tag = decodeTag(trimmed)
    if (Result.isFailure(tag)) {
      return Result.fail(`tags: "${trimmed}" is not a tag (1 to 64 characters, no ';' or ',')`)
    }
    if (!tags.includes(tag.success)) tags.push(tag.success)
  }
  return Result.succeed(tags)
}

/** The amount columns of a patch, each with its field. */
const amountColumns = [
  ["price", "price"],
  ["cost", "cost"],
  ["compare_at_price", "compareAtPrice"],
  ["min_price", "minPrice"],
  ["max_price", "maxPrice"],
  ["competitor_price", "competitorPrice"]
] as const

const refColumns = [
  ["store_product_ref", "storeProductRef"],
  ["store_variant_ref", "storeVariantRef"]
] as const

/**
 * The checks every line goes through, whatever its format. Written with early returns rather
 * than `Result.gen`: this runs once per line of files of a million lines, and the generator
 * costs several times the checks themselves. Amounts are checked for their form here and turned
 * into minor units once the item's currency is known (CatalogImportDecision).
 */
const validate = (raw: RawLine): Result.Result<CatalogPatch, string> => {
  const sku = mentioned(raw.sku)
  if (sku === undefined || sku === null) return Result.fail("sku is required")
  if (sku.length > maxSkuLength) return Result.fail(`sku is longer than ${maxSkuLength} characters`)
  const patch: Writable<CatalogPatch> = { sku }
  const title = mentioned(raw.title)
  if (title === null) return Result.fail(cannotClear("title"))
  if (title !== undefined) patch.title = title
  const currencyText = mentioned(raw.currency)
  if (currencyText === null) return Result.fail(cannotClear("currency"))
  if (currencyText !== undefined) {
    const currency = decodeCurrency(currencyText.toUpperCase())
    if (Result.isFailure(currency)) return Result.fail(`currency: "${currencyText}" is not an ISO 4217 code like USD`)
    patch.currency = currency.success
  }
  for (const [column, field] of amountColumns) {
    const text = mentioned(raw[column])
    if (text === undefined) continue
    if (text === null) {
      if (field === "price") return Result.fail(cannotClear("price"))
      patch[field] = null
      continue
    }
    if (!amountPattern.test(text)) return Result.fail(`${column}: "${text}" is not an amount like 12.99`)
    patch[field] = text
  }
  const inventory = mentioned(raw.inventory)
  if (inventory === null) patch.inventory = null
  else if (inventory !== undefined) {
    const value = integer("inventory", inventory, null)
    if (Result.isFailure(value)) return Result.fail(value.failure)
    patch.inventory = value.success
  }
  const unitsSold = mentioned(raw.units_sold_30d)
  if (unitsSold === null) return Result.fail(cannotClear("units_sold_30d"))
  if (unitsSold !== undefined) {
    const value = integer("units_sold_30d", unitsSold, 0)
    if (Result.isFailure(value)) return Result.fail(value.failure)
    patch.unitsSold30d = value.success
  }
  if (raw.tags === null) patch.tags = []
  else if (raw.tags?.some((tag) => tag.trim() !== "")) {
    const tags = parseTags(raw.tags)
    if (Result.isFailure(tags)) return Result.fail(tags.failure)
    patch.tags = tags.success
  }
  for (const [column, field] of refColumns) {
    const ref = mentioned(raw[column])
    if (ref === undefined) continue
    if (ref !== null && ref.length > maxStoreRefLength) {
      return Result.fail(`${column} is longer than ${maxStoreRefLength} characters`)
    }
    patch[field] = ref
  }
  const observed = mentioned(raw.observed_at)
  if (observed === null) return Result.fail(cannotClear("observed_at"))
  if (observed !== undefined) {
    const at = instantPattern.test(observed) ? Date.parse(observed) : Number.NaN
    if (!Number.isFinite(at)) {
      return Result.fail(`observed_at: "${observed}" is not an ISO 8601 time with a zone, like 2026-03-01T09:00:00Z`)
    }
    patch.observedAt = at
  }
  return Result.succeed(patch)
}

const toLine = (result: Result.Result<CatalogPatch, string>, line: number): CatalogLine =>
  Result.isSuccess(result) ? { _tag: "Item", line, patch: result.success } : rejected(line, result.failure)

const isBlank = (text: string): boolean => text.trim() === ""

// Slicing by hand allocates less than String.prototype.split here, which shows on a million lines.
const splitPlain = (text: string): Array<string> => {
  const fields: Array<string> = []
  let start = 0
  let comma = text.indexOf(",")
  while (comma !== -1) {
    fields.push(text.slice(start, comma))
    start = comma + 1
    comma = text.indexOf(",", start)
  }
  fields.push(text.slice(start))
  return fields
}

/** Splits one CSV record (RFC 4180 quoting, without line breaks inside fields). */
export const splitCsvRecord = (text: string): Result.Result<Array<string>, string> => {
  if (!text.includes('"')) return Result.succeed(splitPlain(text))
  const fields: Array<string> = []
  let index = 0
  for (;;) {
    let value = ""
    if (text[index] === '"') {
      // A quoted field runs to the next lone quote; "" inside stands for one quote.
      index++
      for (;;) {
        const quote = text.indexOf('"', index)
        if (quote === -1) return Result.fail("a quoted field is not closed on its line")
        value += text.slice(index, quote)
        index = quote + 1
        if (text[index] !== '"') break
        value += '"'
        index++
      }
      const comma = text.indexOf(",", index)
      const rest = text.slice(index, comma === -1 ? text.length : comma)
      if (rest.trim() !== "") return Result.fail(`unexpected text after a quoted field: ${rest.trim()}`)
      index = comma
    } else {
      const comma = text.indexOf(",", index)
      value = text.slice(index, comma === -1 ? text.length : comma)
      if (value.includes('"')) return Result.fail('a field holding a quote must be quoted, the quote doubled ("")')
      index = comma
    }
    fields.push(value)
    if (index === -1) return Result.succeed(fields)
    index++
  }
}

/** A CSV cell of `column`: the clear cell stands for null in a clearable column. */
const csvCell = (column: CatalogColumn, text: string): string | null =>
  clearableColumns.includes(column) && text.trim().toLowerCase() === clearCell ? null : text

/**
 * Reads the CSV header (line 1) and returns the parser of the lines after it; fails, with the
 * reason, when the header names an unknown or repeated column or leaves out a required one.
 */
export const csvLineParser = (header: string): Result.Result<CatalogLineParser, string> => {
  const names = splitCsvRecord(header.replace(/^\uFEFF/, ""))
  if (Result.isFailure(names)) return Result.fail(`header: ${names.failure}`)
  const positions: Array<readonly [CatalogColumn, number]> = []
  for (const [position, text] of names.success.entries()) {
    const name = text.trim().toLowerCase()
    const column = catalogColumns.find((known) => known === name)
    if (column === undefined) {
      return Result.fail(`header: unknown column "${text.trim()}"; the columns are ${catalogColumns.join(",")}`)
    }
    if (positions.some(([known]) => known === column)) return Result.fail(`header: column "${column}" appears twice`)
    positions.push([column, position])
  }
  const missing = requiredCatalogColumns.filter((column) => !positions.some(([known]) => known === column))
  if (missing.length > 0)
    return Result.fail(`header: missing column${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`)
  const width = names.success.length
  return Result.succeed((text, line) => {
    if (isBlank(text)) return { _tag: "Blank", line }
    const fields = splitCsvRecord(text)
    if (Result.isFailure(fields)) return rejected(line, fields.failure)
    if (fields.success.length !== width) {
      return rejected(line, `expected ${width} fields like the header, found ${fields.success.length}`)
    }
    const raw: Writable<RawLine> = {}
    for (const [column, position] of positions) {
      const cell = csvCell(column, fields.success[position] ?? "")
      if (column === "tags") raw.tags = cell === null ? null : cell.split(";")
      else raw[column] = cell
    }
    return toLine(validate(raw), line)
  })
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

// A number would lose what makes these text (leading zeros of a sku, for one; digits of a large store id).
const textColumns: ReadonlyArray<CatalogColumn> = [
  "sku",
  "title",
  "currency",
  "store_product_ref",
  "store_variant_ref",
  "observed_at"
]

/** A JSON value of a text or number column as text (null kept: it clears); numbers keep their shortest decimal form. */
const jsonCell = (value: unknown, column: CatalogColumn): Result.Result<string | null, string> => {
  if (value === null || typeof value === "string") return Result.succeed(value)
  const numeric = !textColumns.includes(column)
  if (numeric && typeof value === "number" && Number.isFinite(value) && !/e/i.test(String(value))) {
    return Result.succeed(String(value))
  }
  return Result.fail(`${column}: expected a string${numeric ? " or a number" : ""}`)
}

const jsonTags = (value: unknown): Result.Result<ReadonlyArray<string> | null, string> => {
  if (value === null) return Result.succeed(null)
  if (typeof value === "string") return Result.succeed(value.split(";"))
  if (Array.isArray(value) && value.every((tag): tag is string => typeof tag === "string")) {
    // An empty array says "no tags", as null does.
    return Result.succeed(value.length === 0 ? null : value)
  }
  return Result.fail("tags: expected an array of strings or a ';'-separated string")
}

const parseJson = (text: string): Result.Result<unknown, string> =>
  Result.try({ try: () => JSON.parse(text), catch: () => "not valid JSON" })

/** The parser of JSONL lines: every line is one object with the CSV column names as keys. */
export const jsonlLineParser: CatalogLineParser = (text, line) => {
  if (isBlank(text)) return { _tag: "Blank", line }
  const parsed = parseJson(line === 1 ? text.replace(/^\uFEFF/, "") : text)
  if (Result.isFailure(parsed)) return rejected(line, parsed.failure)
  const record = parsed.success
  if (!isRecord(record)) return rejected(line, "expected a JSON object")
  const raw: Writable<RawLine> = {}
  for (const [key, value] of Object.entries(record)) {
    const column = catalogColumns.find((known) => known === key)
    if (column === undefined) return rejected(line, `unknown key "${key}"; the keys are ${catalogColumns.join(",")}`)
    if (value === undefined) continue
    if (column === "tags") {
      const tags = jsonTags(value)
      if (Result.isFailure(tags)) return rejected(line, tags.failure)
      raw.tags = tags.success
      continue
    }
    const cell = jsonCell(value, column)
    if (Result.isFailure(cell)) return rejected(line, cell.failure)
    raw[column] = cell.success
  }
  return toLine(validate(raw), line)
}

/** The columns `toCsvLine` writes: every column but the store refs, the competitor price and observed_at. */
const csvLineColumns: ReadonlyArray<CatalogColumn> = catalogColumns.filter(
  (column) =>
    column !== "store_product_ref" &&
    column !== "store_variant_ref" &&
    column !== "competitor_price" &&
    column !== "observed_at"
)

/** Writes an item as one CSV line under `csvHeader` (seeding, tests, benchmarks; store refs and competitor price left out). */
export const toCsvLine = (item: CatalogItemInput): string => {
  const quote = (text: string): string => (/[",]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text)
  const money = (minor: number | null): string => (minor === null ? "" : formatMajorUnits(minor, item.currency))
  return [
    quote(item.sku),
    quote(item.title),
    item.tags.join(";"),
    item.currency,
    money(item.price),
    money(item.cost),
    money(item.compareAtPrice),
    money(item.minPrice),
    money(item.maxPrice),
    item.inventory === null ? "" : String(item.inventory),
    String(item.unitsSold30d)
  ].join(",")
}

/** The CSV header line of `toCsvLine`. */
export const csvHeader: string = csvLineColumns.join(",")
