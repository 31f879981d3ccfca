/**
 * Runs a planned read and shapes PostgREST's answer: the JSON array (or one object for the single-object
 * Accept type, else 406; or CSV), `Content-Range` with the exact, planned or estimated count when asked,
 * and 206 for a partial page.
 */
import type { ApiResponse } from '../context'
import type { Queryable } from '../db/database'
import { singleObjectError } from './errors'
import { renderNode, type ReadNode } from './read-plan'
import { contentRange, type CountKind, type Options } from './request-options'
import type { Params } from './sql'

export type ReadResult = { total: number | null; page: number; body: string; extra?: number }

export type ReadRun = {
  count?: CountKind
  /** The exact count stops here for `count=estimated` (db-max-rows); past it the planner's estimate is used. */
  maxRows?: number
  csv?: boolean
  /** A `with …` prefix (the mutation whose rows are read). */
  prefix?: string
  /** One more integer computed in the same statement (e.g. how many rows an upsert inserted). */
  extra?: string
  /** Leave keys with null values out of the JSON (`nulls=stripped`), as PostgREST's json_strip_nulls does. */
  stripNulls?: boolean
}

/**
 * PostgREST's CSV: the keys of the first row as the header, then each row in Postgres's record text form
 * without its parentheses (so quoting and escaping are Postgres's own, and json/arrays print as Postgres does).
 */
const CSV_BODY = `coalesce((select string_agg(k, ',') from (select json_object_keys(row_to_json(_h)) as k from (select * from _rows limit 1) _h) _k), '') || E'\\n' ||
  coalesce(string_agg(substr(_r::text, 2, length(_r::text) - 2), E'\\n'), '')`

/** One statement: the page as JSON (or CSV) text, its row count, and (when asked) the count without limit/offset. */
export async function runRead(tx: Queryable, node: ReadNode, params: Params, run: ReadRun = {}): Promise<ReadResult> {
  const { count, maxRows } = run
  const capped = count === 'estimated' && maxRows !== undefined
  let total = 'null::int'
  if (count === 'exact' || (count === 'estimated' && !capped))
    total = `(select count(*) from (${renderNode(node, true)}) _c)::int`
  else if (capped) total = `(select count(*) from (${renderNode(node, true)} limit ${maxRows + 1}) _c)::int`
  const extra = run.extra ? `, (${run.extra})::int as extra` : ''
  const sql = run.csv
    ? `${withRows(run.prefix, node)}select ${total} as total, count(*)::int as page, ${CSV_BODY} as body${extra} from _rows _r`
    : `${run.prefix ?? ''}select ${total} as total, count(*)::int as page, ${stripped(`coalesce(json_agg(_r), '[]')`, run.stripNulls)}::text as body${extra} from (${renderNode(node)}) _r`
  const r = await tx.query<ReadResult>(sql, params.values)
  const row = r.rows[0]
  const result: ReadResult = {
    total: row.total === null ? null : Number(row.total),
    page: Number(row.page),
    body: row.body,
    extra: row.extra === undefined ? undefined : Number(row.extra),
  }
  if (count === 'planned' || (capped && result.total !== null && result.total > maxRows)) {
    result.total = await plannedCount(tx, node, params, run.prefix)
  }
  return result
}

/** A JSON expression without its null-valued keys when `strip` (`Accept: …;nulls=stripped`). */
export const stripped = (json: string, strip: boolean | undefined) => (strip ? `json_strip_nulls(${json})` : json)

/** The page's rows as a CTE, after the mutation's when there is one. */
function withRows(prefix: string | undefined, node: ReadNode) {
  const rows = `_rows as (${renderNode(node)}) `
  return prefix ? `${prefix.replace(/\s*$/, '')}, ${rows}` : `with ${rows}`
}

/** The planner's row estimate for the request without limit/offset (`Prefer: count=planned`). */
async function plannedCount(tx: Queryable, node: ReadNode, params: Params, prefix = ''): Promise<number> {
  const countSql = renderNode(node, true)
  // Every bound value must appear in the statement for Postgres to type it; unused ones join as one row.
  const used = new Set([...`${prefix}${countSql}`.matchAll(/\$(\d+)(?!\d)/g)].map((m) => Number(m[1])))
  const unused = params.values.map((_, i) => i + 1).filter((n) => !used.has(n))
  const pad = unused.length ? `, (select ${unused.map((n) => `$${n}::text`).join(', ')}) _p` : ''
  const r = await tx.query<{ 'QUERY PLAN': unknown }>(
    `explain (format json) ${prefix}select 1 from (${countSql}) _c${pad}`,
    params.values,
  )
  const plan = r.rows[0]['QUERY PLAN']
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: { 'Plan Rows': number } }[]
  return Math.round(parsed[0].Plan['Plan Rows'])
}

/** The body for a result: the array, or its only element for the single-object Accept type. */
export function shapeBody(result: ReadResult, opts: Options): string {
  if (!opts.single) return result.body
  if (result.page !== 1) throw singleObjectError(result.page)
  return result.body.slice(1, -1).trim()
}

export function contentType(opts: Options): string {
  if (opts.csv) return 'text/csv; charset=utf-8'
  if (opts.stripNulls) {
    return `application/vnd.pgrst.${opts.single ? 'object' : 'array'}+json;nulls=stripped; charset=utf-8`
  }
  return opts.single ? 'application/vnd.pgrst.object+json; charset=utf-8' : 'application/json; charset=utf-8'
}

export function readResponse(result: ReadResult, opts: Options, offset: number, head: boolean): ApiResponse {
  const body = opts.csv ? result.body : shapeBody(result, opts)
  const headers: Record<string, string> = {
    'content-type': contentType(opts),
    'content-range': contentRange(offset, result.page, result.total),
  }
  const partial = result.total !== null && result.page < result.total && !opts.single
  return { status: partial ? 206 : 200, headers, body: head ? undefined : body }
}
