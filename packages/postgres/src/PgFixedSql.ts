import type { Row } from "effect/sql/SqlConnection"
import { type Constructor, isFragment, type Statement } from "effect/sql/Statement"

/** What a call site compiled to, and the fragments it was compiled with. */
interface Compiled {
  readonly text: string
  /** Per argument of the template: the fragment it was (compared by identity), undefined for a parameter. */
  readonly fragments: ReadonlyArray<unknown>
}

const segmentTags: ReadonlySet<unknown> = new Set([
  "Literal",
  "Identifier",
  "Parameter",
  "ArrayHelper",
  "RecordInsertHelper",
  "RecordUpdateHelper",
  "RecordUpdateHelperSingle",
  "Custom"
])

/** A template argument that `sql` splices in as SQL (a fragment, an identifier, a helper), not as a parameter. */
export const isSqlPiece = (argument: unknown): boolean =>
  isFragment(argument) ||
  (typeof argument === "object" && argument !== null && "_tag" in argument && segmentTags.has(argument._tag))

/**
 * The statement's text when its parameters are exactly `parameters`, in order (so `sql.unsafe` of
 * the text with another call's parameters is that call's statement); null when they are not.
 */
export const textOf = (statement: Statement<object>, parameters: ReadonlyArray<unknown>): string | null => {
  const [text, binds] = statement.compile()
  const oneToOne =
    binds.length === parameters.length && binds.every((bind, index) => Object.is(bind, parameters[index]))
  return oneToOne ? text : null
}

/**
 * The text of the statement `build` makes of `arity` parameters, compiled once (for
 * PgTransactionLane): null when that statement's parameters are not exactly the ones given, in
 * order (a fragment of it carried parameters of its own), and the caller then builds it per call.
 */
export const fixedTextOf = (
  arity: number,
  build: (parameters: ReadonlyArray<unknown>) => Statement<object>
): string | null => {
  const markers = Array.from({ length: arity }, (_, index) => `$parameter${index}`)
  return textOf(build(markers), markers)
}

/**
 * The call site's text when it depends on the call site alone: every argument that is not a SQL
 * piece became exactly one parameter, in order (so no piece carried parameters of its own). Null
 * when it does not; the site then always compiles as `sql` does.
 */
const compiledOf = (statement: Statement<object>, args: ReadonlyArray<unknown>): Compiled | null => {
  const text = textOf(
    statement,
    args.filter((argument) => !isSqlPiece(argument))
  )
  return text === null
    ? null
    : { text, fragments: args.map((argument) => (isSqlPiece(argument) ? argument : undefined)) }
}

/** This call's parameters when its fragments are the compiled ones, else undefined. */
const parametersOf = (compiled: Compiled, args: ReadonlyArray<unknown>): Array<unknown> | undefined => {
  if (args.length !== compiled.fragments.length) return undefined
  const parameters: Array<unknown> = []
  for (let index = 0; index < args.length; index++) {
    const fragment = compiled.fragments[index]
    const argument = args[index]
    if (fragment === undefined) {
      if (isSqlPiece(argument)) return undefined
      parameters.push(argument)
    } else if (argument !== fragment) {
      return undefined
    }
  }
  return parameters
}

/**
 * `sql`'s tagged template for the statements every request runs, compiled to text once per call
 * site. The first call of a site compiles as `sql` does; when the text depends on the site alone
 * (its fragments — column lists, table names — are the same objects every call, and every other
 * argument is one parameter), later calls run `sql.unsafe(text, parameters)` with this call's
 * parameters: no segments built and no text assembled per call (about 2 µs and a few hundred bytes
 * for a short statement, more for a long one). A call with other fragments, or a site whose
 * arguments do not map one to one onto its parameters, compiles as `sql` does every time. The
 * statement is the same either way: same text, same parameters, same client. Meant for a client
 * without name transforms (`sql.withoutTransforms()`, as every repository's is): the text keeps
 * identifiers as they were compiled the first time, whichever way the statement is then run.
 */
export const fixedSql = (sql: Constructor) => {
  const compiled = new WeakMap<TemplateStringsArray, Compiled | null>()
  return <A extends object = Row>(strings: TemplateStringsArray, ...args: Array<unknown>): Statement<A> => {
    const known = compiled.get(strings)
    if (known === undefined) {
      const statement = sql<A>(strings, ...args)
      compiled.set(strings, compiledOf(statement, args))
      return statement
    }
    if (known === null) return sql<A>(strings, ...args)
    const parameters = parametersOf(known, args)
    return parameters === undefined ? sql<A>(strings, ...args) : sql.unsafe<A>(known.text, parameters)
  }
}
