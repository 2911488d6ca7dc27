/** Margins on the wire: fractions (0.3521 = 35.21 %) rounded to four decimals; null when unknown. */
export const ratioJson = (ratio: number | null): number | null =>
  ratio === null ? null : Math.round(ratio * 10_000) / 10_000
