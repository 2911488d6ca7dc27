import { Result, Schema } from "effect"
import type { CatalogItemInput } from "./CatalogItem.ts"
import { CurrencyCode, formatMajorUnits, parseMajorUnits } from "./Money.ts"
import { Tag } from "./Tag.ts"

/**
 * The catalog import format, one item per line, parsed line by line so that a file of any size
 * streams through in bounded memory (a field therefore never spans lines).
 *
 * CSV: a header line naming the columns, then one item per line. Fields are separated by `,`;
 * a field holding `,` or `"` is quoted (`"a, b"`, `"say ""hi"""`). JSONL: one JSON object per line
 * with the same keys. `tags` are separated by `;` (JSONL also takes an array of strings); amounts
 * are decimal strings in major units (`12.99`, JSONL also takes numbers); empty or null = unknown.
 * Blank lines are skipped. The optional `store_product_ref` and `store_variant_ref` link an item to
 * its product and variant in the connected store (Shopify ids for write-back); empty keeps what the
 * item had. The optional `competitor_price` is the lowest current competitor price (same currency): a
 * file with the column sets it on every item (empty = none), a file without it keeps the items'.
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
  "competitor_price"
] as const
export type CatalogColumn = (typeof catalogColumns)[number]

/** Columns a CSV header must name; the others may be left out (unknown for every item). */
export const requiredCatalogColumns: ReadonlyArray<CatalogColumn> = ["sku", "title", "currency", "price"]

export type CatalogFormat = "csv" | "jsonl"

/** What one line of the file gave. */
export type CatalogLine =
  | { readonly _tag: "Item"; readonly line: number; readonly item: CatalogItemInput }
  | { readonly _tag: "Rejected"; readonly line: number; readonly error: string }
  | { readonly _tag: "Blank"; readonly line: number }

/** Turns the text of line `line` (1-based, without its line break) into an item or a reason. */
export type CatalogLineParser = (text: string, line: number) => CatalogLine

/** The format a file name announces: `.csv` or `.jsonl` / `.ndjson`. */
export const formatOfFileName = (fileName: string): Result.Result<CatalogFormat, string> => {
  const lower = fileName.toLowerCase()
  if (lower.endsWith(".csv")) return Result.succeed("csv")
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return Result.succeed("jsonl")
  return Result.fail(`cannot tell the format of "${fileName}": name it .csv or .jsonl`)
}

/** One item's fields as text, before validation; "" = not given. */
interface RawItem {
  readonly sku: string
  readonly title: string
  readonly tags: ReadonlyArray<string>
  readonly currency: string
  readonly price: string
  readonly cost: string
  readonly compare_at_price: string
  readonly min_price: string
  readonly max_price: string
  readonly inventory: string
  readonly units_sold_30d: string
  readonly store_product_ref: string
  readonly store_variant_ref: string
  /** Undefined when the file (CSV) or the line (JSONL) has no such column. */
  readonly competitor_price: string | undefined
}

const maxSkuLength = 128
const maxStoreRefLength = 255
const integerPattern = /^-?\d+$/
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

const amount = (column: CatalogColumn, text: string, currency: CurrencyCode): Result.Result<number | null, string> =>
  text === ""
    ? Result.succeed(null)
    : Result.mapError(parseMajorUnits(text, currency), (reason) => `${column}: ${reason}`)

const integer = (column: CatalogColumn, text: string, minimum: number | null): Result.Result<number | null, string> => {
  if (text === "") return Result.succeed(null)
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

/**
 * The checks every line goes through, whatever its format. Written with early returns rather
 * than `Result.gen`: this runs once per line of files of a million lines, and the generator
 * costs several times the checks themselves.
 */
const validate = (raw: RawItem): Result.Result<CatalogItemInput, string> => {
  const sku = raw.sku.trim()
  if (sku === "") return Result.fail("sku is required")
  if (sku.length > maxSkuLength) return Result.fail(`sku is longer than ${maxSkuLength} characters`)
  const title = raw.title.trim()
  if (title === "") return Result.fail("title is required")
  const currencyText = raw.currency.trim()
  if (currencyText === "") return Result.fail("currency is required")
  const currency = decodeCurrency(currencyText.toUpperCase())
  if (Result.isFailure(currency)) return Result.fail(`currency: "${currencyText}" is not an ISO 4217 code like USD`)
  const code = currency.success
  const priceText = raw.price.trim()
  if (priceText === "") return Result.fail("price is required")
  const price = parseMajorUnits(priceText, code)
  if (Result.isFailure(price)) return Result.fail(`price: ${price.failure}`)
  const cost = amount("cost", raw.cost.trim(), code)
  if (Result.isFailure(cost)) return Result.fail(cost.failure)
  const compareAtPrice = amount("compare_at_price", raw.compare_at_price.trim(), code)
  if (Result.isFailure(compareAtPrice)) return Result.fail(compareAtPrice.failure)
  const minPrice = amount("min_price", raw.min_price.trim(), code)
  if (Result.isFailure(minPrice)) return Result.fail(minPrice.failure)
  const maxPrice = amount("max_price", raw.max_price.trim(), code)
  if (Result.isFailure(maxPrice)) return Result.fail(maxPrice.failure)
  // A floor above the ceiling is imported as it is: the next run raises a floor_above_ceiling alert about it.
  const inventory = integer("inventory", raw.inventory.trim(), null)
  if (Result.isFailure(inventory)) return Result.fail(inventory.failure)
  const unitsSold = integer("units_sold_30d", raw.units_sold_30d.trim(), 0)
  if (Result.isFailure(unitsSold)) return Result.fail(unitsSold.failure)
  const tags = parseTags(raw.tags)
  if (Result.isFailure(tags)) return Result.fail(tags.failure)
  const productRef = raw.store_product_ref.trim()
  if (productRef.length > maxStoreRefLength) {
    return Result.fail(`store_product_ref is longer than ${maxStoreRefLength} characters`)
  }
  const variantRef = raw.store_variant_ref.trim()
  if (variantRef.length > maxStoreRefLength) {
    return Result.fail(`store_variant_ref is longer than ${maxStoreRefLength} characters`)
  }
  const competitorText = raw.competitor_price?.trim()
  const competitorPrice = competitorText === undefined ? null : amount("competitor_price", competitorText, code)
  if (competitorPrice !== null && Result.isFailure(competitorPrice)) return Result.fail(competitorPrice.failure)
  const item: CatalogItemInput = {
    ...(competitorPrice === null ? {} : { competitorPrice: competitorPrice.success }),
    sku,
    title,
    tags: tags.success,
    currency: code,
    price: price.success,
    cost: cost.success,
    compareAtPrice: compareAtPrice.success,
    minPrice: minPrice.success,
    maxPrice: maxPrice.success,
    inventory: inventory.success,
    unitsSold30d: unitsSold.success ?? 0
  }
  // Left out rather than empty: an update keeps the refs the item has (CatalogItemInput).
  if (productRef === "" && variantRef === "") return Result.succeed(item)
  return Result.succeed({
    ...item,
    ...(productRef === "" ? {} : { storeProductRef: productRef }),
    ...(variantRef === "" ? {} : { storeVariantRef: variantRef })
  })
}

const toLine = (result: Result.Result<CatalogItemInput, string>, line: number): CatalogLine =>
  Result.isSuccess(result) ? { _tag: "Item", line, item: result.success } : rejected(line, result.failure)

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

/**
 * Reads the CSV header (line 1) and returns the parser of the lines after it; fails, with the
 * reason, when the header names an unknown or repeated column or leaves out a required one.
 */
export const csvLineParser = (header: string): Result.Result<CatalogLineParser, string> => {
  const names = splitCsvRecord(header.replace(/^\uFEFF/, ""))
  if (Result.isFailure(names)) return Result.fail(`header: ${names.failure}`)
  const positions = new Map<CatalogColumn, number>()
  for (const [position, text] of names.success.entries()) {
    const name = text.trim().toLowerCase()
    const column = catalogColumns.find((known) => known === name)
    if (column === undefined) {
      return Result.fail(`header: unknown column "${text.trim()}"; the columns are ${catalogColumns.join(",")}`)
    }
    if (positions.has(column)) return Result.fail(`header: column "${column}" appears twice`)
    positions.set(column, position)
  }
  const missing = requiredCatalogColumns.filter((column) => !positions.has(column))
  if (missing.length > 0)
    return Result.fail(`header: missing column${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`)
  const width = names.success.length
  const competitorColumn = positions.has("competitor_price")
  const at = (fields: ReadonlyArray<string>, column: CatalogColumn): string => {
    const position = positions.get(column)
    return position === undefined ? "" : (fields[position] ?? "")
  }
  return Result.succeed((text, line) => {
    if (isBlank(text)) return { _tag: "Blank", line }
    const fields = splitCsvRecord(text)
    if (Result.isFailure(fields)) return rejected(line, fields.failure)
    if (fields.success.length !== width) {
      return rejected(line, `expected ${width} fields like the header, found ${fields.success.length}`)
    }
    const values = fields.success
    return toLine(
      validate({
        sku: at(values, "sku"),
        title: at(values, "title"),
        tags: at(values, "tags").split(";"),
        currency: at(values, "currency"),
        price: at(values, "price"),
        cost: at(values, "cost"),
        compare_at_price: at(values, "compare_at_price"),
        min_price: at(values, "min_price"),
        max_price: at(values, "max_price"),
        inventory: at(values, "inventory"),
        units_sold_30d: at(values, "units_sold_30d"),
        store_product_ref: at(values, "store_product_ref"),
        store_variant_ref: at(values, "store_variant_ref"),
        competitor_price: competitorColumn ? at(values, "competitor_price") : undefined
      }),
      line
    )
  })
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

// A number would lose what makes these text (leading zeros of a sku, for one; digits of a large store id).
const textColumns: ReadonlyArray<CatalogColumn> = ["sku", "title", "currency", "store_product_ref", "store_variant_ref"]

/** A JSON value of a text or number column as text; numbers keep their shortest decimal form. */
const jsonText = (record: Readonly<Record<string, unknown>>, column: CatalogColumn): Result.Result<string, string> => {
  const value = record[column]
  if (value === undefined || value === null) return Result.succeed("")
  if (typeof value === "string") return Result.succeed(value)
  const numeric = !textColumns.includes(column)
  if (numeric && typeof value === "number" && Number.isFinite(value) && !/e/i.test(String(value))) {
    return Result.succeed(String(value))
  }
  return Result.fail(`${column}: expected a string${numeric ? " or a number" : ""}`)
}

const jsonTags = (value: unknown): Result.Result<ReadonlyArray<string>, string> => {
  if (value === undefined || value === null) return Result.succeed([])
  if (typeof value === "string") return Result.succeed(value.split(";"))
  if (Array.isArray(value) && value.every((tag): tag is string => typeof tag === "string")) {
    return Result.succeed(value)
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
  const unknown = Object.keys(record).find((key) => !catalogColumns.some((column) => column === key))
  if (unknown !== undefined) return rejected(line, `unknown key "${unknown}"; the keys are ${catalogColumns.join(",")}`)
  const tags = jsonTags(record.tags)
  if (Result.isFailure(tags)) return rejected(line, tags.failure)
  const texts: Partial<Record<CatalogColumn, string>> = {}
  for (const column of catalogColumns) {
    if (column === "tags") continue
    const value = jsonText(record, column)
    if (Result.isFailure(value)) return rejected(line, value.failure)
    texts[column] = value.success
  }
  return toLine(
    validate({
      sku: texts.sku ?? "",
      title: texts.title ?? "",
      tags: tags.success,
      currency: texts.currency ?? "",
      price: texts.price ?? "",
      cost: texts.cost ?? "",
      compare_at_price: texts.compare_at_price ?? "",
      min_price: texts.min_price ?? "",
      max_price: texts.max_price ?? "",
      inventory: texts.inventory ?? "",
      units_sold_30d: texts.units_sold_30d ?? "",
      store_product_ref: texts.store_product_ref ?? "",
      store_variant_ref: texts.store_variant_ref ?? "",
      competitor_price: "competitor_price" in record ? (texts.competitor_price ?? "") : undefined
    }),
    line
  )
}

/** The columns `toCsvLine` writes: every column but the store refs and the competitor price. */
const csvLineColumns: ReadonlyArray<CatalogColumn> = catalogColumns.filter(
  (column) => column !== "store_product_ref" && column !== "store_variant_ref" && column !== "competitor_price"
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
