import type { Entity, Fields, Instant, Money, Ratio, Same, Wire } from "@margin/core/kernel/Entity"
import { recordOf } from "@margin/core/kernel/Entity"
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

type Value = Readonly<Record<string, unknown>>

const isCurrencyCode = Schema.is(CurrencyCode)
/** The last currency checked: the rows of a list share one, and its pattern check is then made once. */
let checked: unknown
const isCurrency = (value: unknown): value is CurrencyCode => {
  if (value === checked) return true
  if (!isCurrencyCode(value)) return false
  checked = value
  return true
}

/** How one field's domain value becomes its wire value. */
const encoderOf = <F extends Fields>(entity: Entity<F>, key: string, wire: Wire): ((value: Value) => unknown) => {
  switch (wire._tag) {
    case "Same":
      return (value) => value[key]
    case "Money": {
      const currency = wire.currency
      if (entity.fields[currency]?.schema !== CurrencyCode) {
        throw new Error(`${entity.name}.${key}: money in ${currency}, which is no CurrencyCode field`)
      }
      // The currency field's schema is CurrencyCode (checked above): the guard below always holds for a
      // value of the entity and only narrows the type.
      return (value) => {
        const minor = value[key]
        const code = value[currency]
        return typeof minor === "number" && isCurrency(code) ? moneyJson(minor, code) : null
      }
    }
    case "Ratio":
      return (value) => {
        const ratio = value[key]
        return ratioJson(typeof ratio === "number" ? ratio : null)
      }
    case "Instant":
      return (value) => {
        const at = value[key]
        return typeof at === "number" ? toIso(at) : null
      }
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
  const encoders = wired.map(({ key, wire }) => encoderOf(entity, key, wire))
  const build = recordOf(wired.map(({ wire }) => wire.name))
  type Json = typeof schema.Type
  const encode = (value: Entity<F>["schema"]["Type"]): Json => {
    const values: Array<unknown> = new Array(encoders.length)
    for (let i = 0; i < encoders.length; i++) values[i] = encoders[i]?.(value)
    // Each value is its field's wire form (encoderOf), under the names of the schema: Json by construction.
    return build(values) as Json
  }
  return { schema, encode }
}
