import type { Entity, Fields, Instant, Money, Ratio, Same, Wire } from "@margin/core/kernel/Entity"
import { compiled, read } from "@margin/core/kernel/Entity"
import { CurrencyCode } from "@margin/core/kernel/Money"
import { toIso } from "@margin/core/kernel/Timestamp"
import { Schema } from "effect"
import { MoneyJson, moneyJson } from "./MoneyJson.ts"
import { ratioJson } from "./RatioJson.ts"
import { IsoTimestamp } from "./TimestampJson.ts"

const RatioJson = Schema.NullOr(Schema.Finite)
const NullableIsoTimestamp = Schema.NullOr(IsoTimestamp)

/** The wire schema of a wire form. */
type WireSchema<W> =
  W extends Same<string, infer S>
    ? S
    : W extends Money<string>
      ? typeof MoneyJson
      : W extends Ratio<string>
        ? typeof RatioJson
        : W extends Instant<string, true>
          ? typeof NullableIsoTimestamp
          : W extends Instant<string, false>
            ? typeof IsoTimestamp
            : never

/** The wire fields of an entity: each field that has a wire form, under its wire name. */
export type WireFields<F extends Fields> = {
  readonly [K in keyof F as F[K]["wire"] extends Wire ? F[K]["wire"]["name"] : never]: WireSchema<F[K]["wire"]>
}

const schemaOf = (wire: Wire): Schema.Top => {
  switch (wire._tag) {
    case "Same":
      return wire.schema
    case "Money":
      return MoneyJson
    case "Ratio":
      return RatioJson
    case "Instant":
      return wire.nullable ? NullableIsoTimestamp : IsoTimestamp
  }
}

const isCurrencyCode = Schema.is(CurrencyCode)
/** The last currency checked: the rows of a list share one, and its pattern check is then made once. */
let checked: unknown
const isCurrency = (value: unknown): value is CurrencyCode => {
  if (value === checked) return true
  if (!isCurrencyCode(value)) return false
  checked = value
  return true
}

/** The helpers the compiled encoder calls, `h[0]` to `h[2]`. */
const helpers = [
  (minor: unknown, currency: unknown) =>
    typeof minor === "number" && isCurrency(currency) ? moneyJson(minor, currency) : null,
  (ratio: unknown) => ratioJson(typeof ratio === "number" ? ratio : null),
  (at: unknown) => (typeof at === "number" ? toIso(at) : null)
]

/** The expression of one field's wire value (Entity.compiled), reading the domain value `v`. */
const expressionOf = <F extends Fields>(entity: Entity<F>, key: string, wire: Wire): string => {
  switch (wire._tag) {
    case "Same":
      return read(key)
    case "Money":
      // The currency field's schema is CurrencyCode: the helper's guard holds for every value of the entity.
      if (entity.fields[wire.currency]?.schema !== CurrencyCode) {
        throw new Error(`${entity.name}.${key}: money in ${wire.currency}, which is no CurrencyCode field`)
      }
      return `h[0](${read(key)}, ${read(wire.currency)})`
    case "Ratio":
      return `h[1](${read(key)})`
    case "Instant":
      return `h[2](${read(key)})`
  }
}

/**
 * An entity's wire JSON, derived from its declaration: the schema (the OpenAPI component and the MCP
 * output schema, named after the entity) and the encoder of a domain value. Fields go to the wire in
 * declaration order; a field without a wire form stays inside the service.
 */
export const entityJson = <F extends Fields>(entity: Entity<F>) => {
  const wired = Object.entries(entity.fields).flatMap(([key, field]) =>
    field.wire === undefined ? [] : [{ key, wire: field.wire }]
  )
  const fields: Record<string, Schema.Top> = {}
  for (const { wire } of wired) fields[wire.name] = schemaOf(wire)
  // The struct of the wire schemas under their wire names, which WireFields spells out for the compiler.
  const schema = Schema.Struct(fields as WireFields<F>).annotate({ identifier: entity.name })
  type Json = typeof schema.Type
  const encoder = compiled(
    wired.map(({ key, wire }) => [wire.name, expressionOf(entity, key, wire)]),
    helpers
  )
  // Each value is its field's wire form (expressionOf), under the names of the schema: Json by construction.
  const encode = (value: Entity<F>["schema"]["Type"]): Json => encoder(value) as Json
  return { schema, encode }
}
