import { Result, Schema } from "effect"

/** An ISO 4217 alphabetic code (`USD`, `JPY`). Branded so a plain string is never taken for one by accident. */
export const CurrencyCode = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[A-Z]{3}$/, { message: "a currency is an ISO 4217 code of 3 uppercase letters" })),
  Schema.brand("CurrencyCode")
)
export type CurrencyCode = typeof CurrencyCode.Type

// ISO 4217 currencies whose minor unit is not the usual hundredth. Everything else has 2 decimals.
const exponents: ReadonlyMap<string, number> = new Map([
  ...[
    "BIF",
    "CLP",
    "DJF",
    "GNF",
    "ISK",
    "JPY",
    "KMF",
    "KRW",
    "PYG",
    "RWF",
    "UGX",
    "UYI",
    "VND",
    "VUV",
    "XAF",
    "XOF",
    "XPF"
  ].map((code) => [code, 0] as const),
  ...["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"].map((code) => [code, 3] as const),
  ...["CLF", "UYW"].map((code) => [code, 4] as const)
])

/** How many decimals the currency's minor unit has: 0 for JPY, 2 for USD, 3 for KWD. */
export const minorUnitExponent = (currency: CurrencyCode): number => exponents.get(currency) ?? 2

/** An amount of money: an integer count of the currency's minor units (cents, yen, fils). */
export const Money = Schema.Struct({
  amount: Schema.Int,
  currency: CurrencyCode
})
export type Money = typeof Money.Type

const majorUnitsPattern = /^(\d+)(?:\.(\d+))?$/

/**
 * Reads a non-negative decimal amount in major units ("12.34") as minor units (1234 for USD).
 * Extra decimals are accepted only when they are zeros ("12.340"), so no amount is ever rounded.
 */
export const parseMajorUnits = (text: string, currency: CurrencyCode): Result.Result<number, string> => {
  const match = majorUnitsPattern.exec(text.trim())
  if (match === null) {
    return Result.fail(`"${text}" is not an amount: use digits with an optional decimal point, like 12.34`)
  }
  const exponent = minorUnitExponent(currency)
  const whole = match[1] ?? ""
  const fraction = match[2] ?? ""
  if (fraction.length > exponent && !/^0*$/.test(fraction.slice(exponent))) {
    return Result.fail(
      `"${text}" has more than ${exponent} decimal${exponent === 1 ? "" : "s"}, the minor unit of ${currency}`
    )
  }
  const minor = Number(whole + fraction.slice(0, exponent).padEnd(exponent, "0"))
  if (!Number.isSafeInteger(minor)) {
    return Result.fail(`"${text}" is too large an amount`)
  }
  return Result.succeed(minor)
}

const twoDigits = Array.from({ length: 100 }, (_, n) => (n < 10 ? `0${n}` : `${n}`))

/** Writes minor units as a plain decimal in major units: 1234 USD -> "12.34", 500 JPY -> "500", -5 USD -> "-0.05". */
export const formatMajorUnits = (minor: number, currency: CurrencyCode): string => {
  const exponent = minorUnitExponent(currency)
  const abs = Math.abs(Math.round(minor))
  const sign = minor < 0 && abs !== 0 ? "-" : ""
  if (exponent === 0) return `${sign}${abs}`
  // Integer arithmetic, no toFixed: explanations format several amounts for every recommendation.
  const scale = 10 ** exponent
  const fraction = abs % scale
  const decimals = exponent === 2 ? (twoDigits[fraction] ?? "") : `${fraction}`.padStart(exponent, "0")
  return `${sign}${(abs - fraction) / scale}.${decimals}`
}

/** Minor units for people: 1234 USD -> "12.34 USD". */
export const formatMoney = (minor: number, currency: CurrencyCode): string =>
  `${formatMajorUnits(minor, currency)} ${currency}`
