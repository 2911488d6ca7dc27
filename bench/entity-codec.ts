// The read path of a list, in process: 51 rows of `recommendations` as the driver's values, decoded
// to the domain and encoded for the wire (then JSON.stringify), by this checkout's derived codec
// (PgEntityRows, EntityJson) and by another checkout's (BENCH_OTHER=<checkout>, e.g. main's hand-written
// decoder), alternating in one process so that a busy machine weighs on both alike.
// Usage: BENCH_OTHER=/tmp/ab/main node bench/entity-codec.ts [rounds]
import { RecommendationEntity } from "@margin/core/recommendations/Recommendation"
import { recommendationJson } from "@margin/edge/wire"
import { recommendationRows } from "@margin/postgres"

const other = process.env.BENCH_OTHER
const rounds = Number(process.argv[2] ?? 40)
const rowCount = 51
const perRound = 400

const at = new Date(1_795_332_953_088)
const rowObject = (i: number) => ({
  ...recommendationRows.toRow(RecommendationEntity.example),
  id: `rec_${String(i).padStart(26, "0")}`,
  accepted_at: i % 2 === 0 ? at : null
})
const objects = Array.from({ length: rowCount }, (_, i) => rowObject(i))
const columns = recommendationRows.columns
const values = objects.map((row) => columns.map((column) => (row as Record<string, unknown>)[column]))

const derived = () => {
  let size = 0
  for (let n = 0; n < perRound; n++) {
    const out = []
    for (const row of values) {
      const decoded = recommendationRows.fast(row)
      if (decoded === undefined) throw new Error("not decoded")
      out.push(recommendationJson(recommendationRows.toDomain(decoded)))
    }
    size += JSON.stringify(out).length
  }
  return size
}

const handWritten = async () => {
  if (other === undefined) return undefined
  const rows = await import(`${other}/packages/postgres/src/PgRecommendationRows.ts`)
  const repository = await import(`${other}/packages/postgres/src/PgRecommendationRepository.ts`)
  const wire = await import(`${other}/packages/edge/src/wire/RecommendationJson.ts`)
  const otherColumns: ReadonlyArray<string> = Object.keys(rows.RecommendationRow.fields)
  const otherValues = objects.map((row) => otherColumns.map((column) => (row as Record<string, unknown>)[column]))
  return () => {
    let size = 0
    for (let n = 0; n < perRound; n++) {
      const out = []
      for (const row of otherValues) {
        const decoded = rows.fastRecommendationRow(rows.recommendationRowOfValues(row))
        if (decoded === undefined) throw new Error("not decoded")
        out.push(wire.recommendationJson(repository.toDomain(decoded)))
      }
      size += JSON.stringify(out).length
    }
    return size
  }
}

const cpu = (f: () => number) => {
  const start = process.cpuUsage()
  const size = f()
  const used = process.cpuUsage(start)
  return { us: (used.user + used.system) / (perRound * rowCount), size }
}

const main = async () => {
  const theirs = await handWritten()
  const mine: Array<number> = []
  const their: Array<number> = []
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? [0, 1] : [1, 0]
    for (const which of order) {
      if (which === 0) mine.push(cpu(derived).us)
      else if (theirs !== undefined) their.push(cpu(theirs).us)
    }
  }
  const median = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN
  const skip = Math.floor(rounds / 4)
  const m = median(mine.slice(skip))
  console.log(`derived: ${m.toFixed(3)} µs CPU a row (decode, domain, wire, JSON), median of ${rounds - skip} rounds`)
  if (their.length > 0) {
    const t = median(their.slice(skip))
    console.log(`other:   ${t.toFixed(3)} µs CPU a row; derived / other = ${(m / t).toFixed(3)}`)
  }
}

main()
