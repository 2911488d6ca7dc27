/**
 * Rows as a plain text table for people: a header line, then one line per row, each column as wide
 * as its widest cell, two spaces apart (the last column unpadded, so no line ends in blanks).
 */
export const table = (headers: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => row[column]?.length ?? 0))
  )
  const line = (cells: ReadonlyArray<string>) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join("  ")
      .trimEnd()
  return [line(headers), ...rows.map(line)].join("\n")
}
