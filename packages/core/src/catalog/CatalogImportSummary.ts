import type { ImportDecision } from "./CatalogImportDecision.ts"

export interface RejectedLine {
  readonly line: number
  readonly error: string
}

/**
 * What an import did, line by line (CatalogImportDecision). `created` + `updated` + `unchanged` +
 * `rejectedTotal` is the number of lines read (blank lines aside). An updated line counts in each of
 * `priceChanged`, `costChanged`, `otherChanged` that it did; `stalePrice` counts lines whose price was
 * kept as older than the item's, whatever else they changed.
 */
export interface CatalogImportSummary {
  readonly created: number
  readonly updated: number
  readonly priceChanged: number
  readonly costChanged: number
  readonly otherChanged: number
  readonly unchanged: number
  readonly stalePrice: number
  /** The first rejected lines, in file order (at most `maxReportedRejections`). */
  readonly rejected: ReadonlyArray<RejectedLine>
  /** Every rejected line, reported or not. */
  readonly rejectedTotal: number
}

/** Rejected lines kept for the answer; the rest are only counted, so memory stays bounded. */
export const maxReportedRejections = 1000

export const emptyImportSummary: CatalogImportSummary = {
  created: 0,
  updated: 0,
  priceChanged: 0,
  costChanged: 0,
  otherChanged: 0,
  unchanged: 0,
  stalePrice: 0,
  rejected: [],
  rejectedTotal: 0
}

const count = (flag: boolean): number => (flag ? 1 : 0)

/** The summary after one more line's decision (`line`: its number in the file, for a rejection). */
export const addDecision = (
  summary: CatalogImportSummary,
  line: number,
  decision: ImportDecision
): CatalogImportSummary => {
  switch (decision._tag) {
    case "Created":
      return { ...summary, created: summary.created + 1 }
    case "Updated":
      return {
        ...summary,
        updated: summary.updated + 1,
        priceChanged: summary.priceChanged + count(decision.priceChanged),
        costChanged: summary.costChanged + count(decision.costChanged),
        otherChanged: summary.otherChanged + count(decision.otherChanged),
        stalePrice: summary.stalePrice + count(decision.stalePrice)
      }
    case "Unchanged":
      return {
        ...summary,
        unchanged: summary.unchanged + 1,
        stalePrice: summary.stalePrice + count(decision.stalePrice)
      }
    case "Rejected":
      return addRejection(summary, { line, error: decision.error })
  }
}

/** The summary after one more rejected line. */
export const addRejection = (summary: CatalogImportSummary, rejected: RejectedLine): CatalogImportSummary => ({
  ...summary,
  rejected: summary.rejected.length < maxReportedRejections ? [...summary.rejected, rejected] : summary.rejected,
  rejectedTotal: summary.rejectedTotal + 1
})
