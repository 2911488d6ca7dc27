/** One thing's fields for people, a line each: `label` padded to the longest, then the value (null as `-`). */
export const details = (
  fields: ReadonlyArray<readonly [label: string, value: string | number | boolean | null]>
): string => {
  const width = Math.max(...fields.map(([label]) => label.length)) + 1
  return fields.map(([label, value]) => `${`${label}:`.padEnd(width)} ${String(value ?? "-")}`).join("\n")
}
