// How the bench writes figures and lines up its tables in a terminal.

export const money = (minor: number) =>
  (minor / 100).toLocaleString("en-US", { minimumFractionDigits: 0, maximumFractionDigits: 0 })
export const percent = (x: number, digits = 1) => `${(x * 100).toFixed(digits)} %`
export const signed = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)} %`
export const count = (n: number) => n.toLocaleString("en-US")

/** Cells padded to `widths`: the first left-aligned, the others right-aligned. */
export const row = (cells: ReadonlyArray<string>, widths: ReadonlyArray<number>) =>
  cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ")
