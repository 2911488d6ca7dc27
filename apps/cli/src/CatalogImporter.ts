import {
  type CatalogFormat,
  type CatalogLine,
  type CatalogLineParser,
  csvLineParser,
  jsonlLineParser
} from "@margin/core/CatalogImport"
import type { CatalogItemInput } from "@margin/core/CatalogItem"
import type { RepositoryError } from "@margin/core/Errors"
import type { WorkspaceId } from "@margin/core/Ids"
import { CatalogRepository } from "@margin/core/ports/CatalogRepository"
import { Clock, Effect, FileSystem, Option, Result, Stream } from "effect"
import { OperatorError } from "./OperatorError.ts"

export interface RejectedLine {
  readonly line: number
  readonly error: string
}

export interface ImportSummary {
  /** Items that were new to the workspace. */
  readonly imported: number
  /** Items whose sku the workspace had already: their fields were replaced. */
  readonly updated: number
  /** The first `maxReported` rejected lines, in file order. */
  readonly rejected: ReadonlyArray<RejectedLine>
  /** Every rejected line, reported or not. */
  readonly rejectedTotal: number
}

export interface ImportOptions {
  /** Items per `upsertMany` call (one transaction each). */
  readonly batchSize: number
  /** Rejected lines kept for the report; the rest are only counted, so memory stays bounded. */
  readonly maxReported: number
}

export const defaultImportOptions: ImportOptions = { batchSize: 1000, maxReported: 1000 }

/** What the parsing stage hands to the writing stage. */
interface Batch {
  readonly items: ReadonlyArray<CatalogItemInput>
  readonly rejected: ReadonlyArray<RejectedLine>
}

interface Pending {
  items: Array<CatalogItemInput>
  skus: Set<string>
  rejected: Array<RejectedLine>
}

const emptyPending = (): Pending => ({ items: [], skus: new Set(), rejected: [] })

/**
 * Groups parsed lines into batches of up to `batchSize` items (plus the rejections met on the way).
 * A sku seen again within the batch closes it first: one upsert never touches a row twice, and the
 * later line wins, as in the file.
 */
const batching =
  (batchSize: number) =>
  (pending: Pending, line: CatalogLine): readonly [Pending, ReadonlyArray<Batch>] => {
    if (line._tag === "Blank") return [pending, []]
    if (line._tag === "Rejected") {
      pending.rejected.push({ line: line.line, error: line.error })
      return pending.rejected.length >= batchSize ? [emptyPending(), [pending]] : [pending, []]
    }
    const sku = line.item.sku
    const closing: Array<Batch> = []
    let current = pending
    if (current.skus.has(sku)) {
      closing.push(current)
      current = emptyPending()
    }
    current.items.push(line.item)
    current.skus.add(sku)
    if (current.items.length >= batchSize) {
      closing.push(current)
      current = emptyPending()
    }
    return [current, closing]
  }

const readFailure = (path: string, reason: string) => new OperatorError({ message: `cannot read ${path}: ${reason}` })

/**
 * Streams a catalog file into the workspace: line by line, in batches through
 * `CatalogRepository.upsertMany`, so memory stays flat whatever the file's size. Good lines are
 * imported even when others are rejected; a CSV header that cannot be used fails the whole import.
 */
export const importCatalogFile = Effect.fn("importCatalogFile")(function* (
  workspaceId: WorkspaceId,
  path: string,
  format: CatalogFormat,
  options: ImportOptions = defaultImportOptions
): Effect.fn.Return<ImportSummary, OperatorError | RepositoryError, FileSystem.FileSystem | CatalogRepository> {
  const fs = yield* FileSystem.FileSystem
  const catalog = yield* CatalogRepository
  const info = yield* fs.stat(path).pipe(Effect.mapError((error) => readFailure(path, error.message)))
  if (info.type !== "File") return yield* readFailure(path, "not a file")

  const lines = fs.stream(path).pipe(
    Stream.decodeText(),
    Stream.splitLines,
    Stream.mapError((error) => readFailure(path, error.message))
  )
  let parse: CatalogLineParser = jsonlLineParser
  let firstLine = 1
  if (format === "csv") {
    const header = yield* Stream.runHead(lines)
    if (Option.isNone(header))
      return yield* new OperatorError({ message: `${path} is empty: a CSV starts with its header line` })
    const parser = csvLineParser(header.value)
    if (Result.isFailure(parser)) return yield* new OperatorError({ message: `${path} line 1: ${parser.failure}` })
    parse = parser.success
    firstLine = 2
  }

  const write = (batch: Batch) =>
    batch.items.length === 0
      ? Effect.succeed({ inserted: 0, updated: 0, batch })
      : Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.map(catalog.upsertMany(workspaceId, batch.items, now), (summary) => ({ ...summary, batch }))
        )

  return yield* (format === "csv" ? Stream.drop(lines, 1) : lines).pipe(
    Stream.zipWithIndex,
    Stream.map(([text, index]) => parse(text, index + firstLine)),
    Stream.mapAccum(emptyPending, batching(options.batchSize), { onHalt: (pending) => [pending] }),
    // Parsing the next batches goes on while the database writes this one.
    Stream.buffer({ capacity: 4 }),
    Stream.mapEffect(write),
    Stream.runFold(
      (): ImportSummary => ({ imported: 0, updated: 0, rejected: [], rejectedTotal: 0 }),
      (summary, written): ImportSummary => ({
        imported: summary.imported + written.inserted,
        updated: summary.updated + written.updated,
        rejected:
          summary.rejected.length >= options.maxReported || written.batch.rejected.length === 0
            ? summary.rejected
            : [...summary.rejected, ...written.batch.rejected.slice(0, options.maxReported - summary.rejected.length)],
        rejectedTotal: summary.rejectedTotal + written.batch.rejected.length
      })
    )
  )
})
