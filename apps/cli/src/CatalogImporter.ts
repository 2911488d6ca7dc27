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
  /**
   * Batches written at once, each in its own transaction (its own connection on PostgreSQL; the
   * embedded database's single connection takes them in turn). The skus are split among them
   * by a hash, so two batches written at once never touch the same item.
   */
  readonly writers: number
  /** Rejected lines kept for the report; the rest are only counted, so memory stays bounded. */
  readonly maxReported: number
}

export const defaultImportOptions: ImportOptions = { batchSize: 2500, writers: 2, maxReported: 1000 }

/**
 * What the parsing stage hands to the writing stage: one batch per writer, written at the same
 * time, and the rejections met on the way. Rounds are written one after the other, so a sku's
 * lines reach the database in file order: its later line wins, as in the file.
 */
interface Round {
  readonly batches: ReadonlyArray<ReadonlyArray<CatalogItemInput>>
  readonly rejected: ReadonlyArray<RejectedLine>
}

interface Lane {
  readonly items: Array<CatalogItemInput>
  readonly skus: Set<string>
}

interface Pending {
  readonly lanes: readonly [Lane, ...Array<Lane>]
  readonly rejected: Array<RejectedLine>
}

const emptyLane = (): Lane => ({ items: [], skus: new Set() })

const emptyPending = (writers: number): Pending => ({
  lanes: [emptyLane(), ...Array.from({ length: writers - 1 }, emptyLane)],
  rejected: []
})

const toRound = (pending: Pending): Round => ({
  batches: pending.lanes.map((lane) => lane.items).filter((items) => items.length > 0),
  rejected: pending.rejected
})

/** The lane (writer) of a sku: by a string hash, so every line of a sku goes to the same one. */
const laneOf = (pending: Pending, sku: string): Lane => {
  let hash = 0
  for (let index = 0; index < sku.length; index++) hash = (hash * 31 + sku.charCodeAt(index)) | 0
  return pending.lanes[(hash >>> 0) % pending.lanes.length] ?? pending.lanes[0]
}

/**
 * Groups parsed lines into rounds of up to `batchSize` items per writer (plus the rejections met
 * on the way). A sku seen again within the round closes it first: one upsert never touches a row
 * twice, and the later line is written after the earlier one.
 */
const batching =
  ({ batchSize, writers }: ImportOptions) =>
  (pending: Pending, line: CatalogLine): readonly [Pending, ReadonlyArray<Round>] => {
    if (line._tag === "Blank") return [pending, []]
    if (line._tag === "Rejected") {
      pending.rejected.push({ line: line.line, error: line.error })
      return pending.rejected.length >= batchSize ? [emptyPending(writers), [toRound(pending)]] : [pending, []]
    }
    const sku = line.item.sku
    const closing: Array<Round> = []
    let current = pending
    if (laneOf(current, sku).skus.has(sku)) {
      closing.push(toRound(current))
      current = emptyPending(writers)
    }
    const lane = laneOf(current, sku)
    lane.items.push(line.item)
    lane.skus.add(sku)
    if (lane.items.length >= batchSize) {
      closing.push(toRound(current))
      current = emptyPending(writers)
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

  const write = (round: Round) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.forEach(round.batches, (items) => catalog.upsertMany(workspaceId, items, now), {
        concurrency: "unbounded"
      })
    ).pipe(
      Effect.map((written) => ({
        inserted: written.reduce((sum, summary) => sum + summary.inserted, 0),
        updated: written.reduce((sum, summary) => sum + summary.updated, 0),
        rejected: round.rejected
      }))
    )

  return yield* (format === "csv" ? Stream.drop(lines, 1) : lines).pipe(
    Stream.zipWithIndex,
    Stream.map(([text, index]) => parse(text, index + firstLine)),
    Stream.mapAccum(() => emptyPending(options.writers), batching(options), {
      onHalt: (pending) => [toRound(pending)]
    }),
    // Parsing the next rounds goes on while the database writes this one.
    Stream.buffer({ capacity: 2 }),
    Stream.mapEffect(write),
    Stream.runFold(
      (): ImportSummary => ({ imported: 0, updated: 0, rejected: [], rejectedTotal: 0 }),
      (summary, written): ImportSummary => ({
        imported: summary.imported + written.inserted,
        updated: summary.updated + written.updated,
        rejected:
          summary.rejected.length >= options.maxReported || written.rejected.length === 0
            ? summary.rejected
            : [...summary.rejected, ...written.rejected.slice(0, options.maxReported - summary.rejected.length)],
        rejectedTotal: summary.rejectedTotal + written.rejected.length
      })
    )
  )
})
