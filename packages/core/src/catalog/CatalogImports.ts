import { Clock, Context, Data, Effect, Layer, Option, Result, Stream } from "effect"
import { type Actor, actorLabel } from "../access/Actor.ts"
import { AuditTrail } from "../audit/AuditTrail.ts"
import { InvalidInput, type RepositoryError, ResourceNotFound } from "../kernel/Errors.ts"
import { IdGenerator } from "../kernel/IdGenerator.ts"
import { CatalogImportId, type WorkspaceId } from "../kernel/Ids.ts"
import { Transactor } from "../kernel/Transactor.ts"
import {
  type CatalogFormat,
  type CatalogLine,
  type CatalogLineParser,
  csvLineParser,
  jsonlLineParser
} from "./CatalogImport.ts"
import { decideImportLine } from "./CatalogImportDecision.ts"
import type { CatalogImportRecord } from "./CatalogImportRecord.ts"
import { CatalogImportRepository } from "./CatalogImportRepository.ts"
import { addDecision, addRejection, type CatalogImportSummary, emptyImportSummary } from "./CatalogImportSummary.ts"
import type { CatalogPatchLine } from "./CatalogPatch.ts"
import { CatalogRepository } from "./CatalogRepository.ts"

export interface CatalogImportOptions {
  /** Lines per `CatalogRepository.applyImport` call: one read of their items and one write. */
  readonly batchSize: number
}

export const defaultImportOptions: CatalogImportOptions = { batchSize: 2000 }

export interface CatalogImportRequest<E> {
  readonly workspaceId: WorkspaceId
  readonly format: CatalogFormat
  /** The file's lines, without their line breaks, streamed (a file of any size in bounded memory). */
  readonly lines: Stream.Stream<string, E>
  /** Decide every line and count, write nothing. */
  readonly dryRun: boolean
  readonly actor: Actor
}

/** What an import answers: its record (with its summary), as stored. */
export type CatalogImportResult = CatalogImportRecord

/** The rollback of a dry run: a dry run decides everything, then takes it all back. */
class DryRunRollback extends Data.TaggedError("DryRunRollback")<{ readonly summary: CatalogImportSummary }> {}

interface Progress {
  readonly summary: CatalogImportSummary
  /** The CSV's line parser once its header is read; JSONL's from the start. */
  readonly parse: CatalogLineParser | null
  readonly nextLine: number
}

const invalidFile = (message: string) => new InvalidInput({ path: "file", message })

/**
 * Imports a catalog file into a workspace (docs/cli.md, section catalog import): each line says only what
 * it mentions (CatalogPatch), decided by `decideImportLine` against the item as it stands. The whole
 * file is one transaction: a crash or a failure midway leaves the catalog as it was, and a
 * repeated import is safe (a line that says what the item holds changes nothing). Good lines are
 * imported even when others are rejected; a file that cannot be read as a catalog (an empty CSV, a
 * CSV header that cannot be used) fails as a whole with `InvalidInput`.
 */
export class CatalogImports extends Context.Service<
  CatalogImports,
  {
    readonly run: <E>(
      request: CatalogImportRequest<E>
    ) => Effect.Effect<CatalogImportResult, E | InvalidInput | RepositoryError>
    readonly get: (
      workspaceId: WorkspaceId,
      id: CatalogImportId
    ) => Effect.Effect<CatalogImportRecord, ResourceNotFound | RepositoryError>
  }
>()("margin/core/CatalogImports") {
  static readonly layerWith = ({ batchSize }: CatalogImportOptions) =>
    Layer.effect(
      CatalogImports,
      Effect.gen(function* () {
        const catalog = yield* CatalogRepository
        const transactor = yield* Transactor
        const audit = yield* AuditTrail
        const records = yield* CatalogImportRepository
        const ids = yield* IdGenerator

        const run = Effect.fn("CatalogImports.run")(function* <E>(request: CatalogImportRequest<E>) {
          const { workspaceId, format, dryRun } = request
          const now = yield* Clock.currentTimeMillis
          const id = CatalogImportId.make(yield* ids.next("catalogImport"))
          const recordOf = (summary: CatalogImportSummary, finishedAt: number): CatalogImportRecord => ({
            id,
            workspaceId,
            status: "succeeded",
            format,
            dryRun,
            summary,
            requestedBy: actorLabel(request.actor),
            createdAt: now,
            finishedAt
          })
          const decide = (current: Parameters<typeof decideImportLine>[0], patch: CatalogPatchLine["patch"]) =>
            decideImportLine(current, patch, workspaceId, now)

          const importBatch = (progress: Progress, texts: ReadonlyArray<string>) =>
            Effect.gen(function* () {
              let parse = progress.parse
              let lineNumber = progress.nextLine
              const parsed: Array<CatalogLine> = []
              for (const text of texts) {
                const line = lineNumber++
                if (parse === null) {
                  const header = csvLineParser(text)
                  if (Result.isFailure(header)) return yield* invalidFile(`line ${line}: ${header.failure}`)
                  parse = header.success
                  continue
                }
                parsed.push(parse(text, line))
              }
              const patches: Array<CatalogPatchLine> = []
              for (const line of parsed) if (line._tag === "Item") patches.push({ line: line.line, patch: line.patch })
              const decisions = patches.length === 0 ? [] : yield* catalog.applyImport(workspaceId, patches, decide)
              let summary = progress.summary
              let decided = 0
              for (const line of parsed) {
                if (line._tag === "Rejected") summary = addRejection(summary, { line: line.line, error: line.error })
                if (line._tag !== "Item") continue
                const decision = decisions[decided++]
                if (decision !== undefined) summary = addDecision(summary, line.line, decision)
              }
              return { summary, parse, nextLine: lineNumber }
            })

          const imported = Effect.gen(function* () {
            const initial: Progress = {
              summary: emptyImportSummary,
              parse: format === "csv" ? null : jsonlLineParser,
              nextLine: 1
            }
            const progress = yield* request.lines.pipe(
              Stream.grouped(batchSize),
              // Reading and splitting the next lines goes on while the database takes these.
              Stream.buffer({ capacity: 2 }),
              Stream.runFoldEffect(() => initial, importBatch)
            )
            if (progress.parse === null)
              return yield* invalidFile("the file is empty: a CSV starts with its header line")
            const { summary } = progress
            yield* audit.record({
              workspaceId,
              actor: actorLabel(request.actor),
              action: "catalog.import",
              resourceType: "catalog_import",
              resourceId: id,
              beforeStatus: null,
              afterStatus: `created ${summary.created}, updated ${summary.updated}, rejected ${summary.rejectedTotal}`,
              at: now
            })
            if (dryRun) return yield* new DryRunRollback({ summary })
            // Recorded in the transaction that applies it: an import that dies leaves no record.
            const record = recordOf(summary, yield* Clock.currentTimeMillis)
            yield* records.insert(record)
            return record
          })

          return yield* transactor.transaction(imported).pipe(
            Effect.catchIf(
              (error): error is DryRunRollback => error instanceof DryRunRollback,
              // A dry run is recorded too, once everything else is rolled back, so that it can be read back.
              (rollback) =>
                Effect.flatMap(Clock.currentTimeMillis, (finishedAt) => {
                  const record = recordOf(rollback.summary, finishedAt)
                  return Effect.as(records.insert(record), record)
                })
            )
          )
        })

        const get = Effect.fn("CatalogImports.get")(function* (workspaceId: WorkspaceId, id: CatalogImportId) {
          const found = yield* records.get(workspaceId, id)
          if (Option.isNone(found)) return yield* new ResourceNotFound({ resource: "catalog_import", id })
          return found.value
        })

        return CatalogImports.of({ run, get })
      })
    ).pipe(Layer.provide(AuditTrail.layer))

  static readonly layer = CatalogImports.layerWith(defaultImportOptions)
}
