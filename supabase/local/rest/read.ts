/**
 * Runs a planned read and shapes PostgREST's answer: the JSON array (or one object for the single-object
 * Accept type, else 406), `Content-Range` with the exact count when asked, and 206 for a partial page.
 */
import type { ApiResponse } from '../context'
import type { Queryable } from '../db/database'
import { singleObjectError } from './errors'
import { renderNode, type ReadNode } from './read-plan'
import { contentRange, type Options } from './request-options'
import type { Params } from './sql'
import { toCsv } from './csv'

export type ReadResult = { total: number | null; page: number; body: string }

/** One statement: the page as JSON text, its row count, and (when asked) the count without limit/offset. */
export async function runRead(tx: Queryable, node: ReadNode, params: Params, count: boolean, prefix = ''): Promise<ReadResult> {
  const total = count ? `(select count(*) from (${renderNode(node, true)}) _c)::int` : 'null::int'
  const sql = `${prefix}select ${total} as total, count(*)::int as page, coalesce(json_agg(_r), '[]')::text as body from (${renderNode(node)}) _r`
  const r = await tx.query<ReadResult>(sql, params.values)
  const row = r.rows[0]
  return { total: row.total === null ? null : Number(row.total), page: Number(row.page), body: row.body }
}

/** The body for a result: the array, or its only element for the single-object Accept type. */
export function shapeBody(result: ReadResult, opts: Options): string {
  if (!opts.single) return result.body
  if (result.page !== 1) throw singleObjectError(result.page)
  return result.body.slice(1, -1).trim()
}

export function readResponse(result: ReadResult, opts: Options, offset: number, head: boolean): ApiResponse {
  const body = shapeBody(result, opts)
  const headers: Record<string, string> = {
    'content-type': opts.csv ? 'text/csv; charset=utf-8' : opts.single ? 'application/vnd.pgrst.object+json; charset=utf-8' : 'application/json; charset=utf-8',
    'content-range': contentRange(offset, result.page, result.total),
  }
  const partial = result.total !== null && result.page < result.total && !opts.single
  return { status: partial ? 206 : 200, headers, body: head ? undefined : opts.csv ? toCsv(result.body) : body }
}
