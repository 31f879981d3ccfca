/**
 * POST (insert and upsert), PATCH and DELETE. Values travel as one JSON parameter turned into typed rows
 * by `json_to_recordset`, so Postgres does every conversion and reports every bad value itself.
 * With `return=representation` the rows come back through the read planner (embeds included) in the
 * same statement; with `return=minimal` nothing is returned, as RLS select policies may forbid it.
 * An upsert that only updated rows answers 200 (201 when it inserted any), told apart by `xmax = 0`.
 */
import type { ApiRequest, ApiResponse } from '../context'
import type { Queryable } from '../db/database'
import { checkColumns, insertRows, parseBody, patchObject, type JsonObject } from './body'
import { conditionSql } from './conditions'
import { RestError, parseError, singleObjectError } from './errors'
import { bodyKind } from './media'
import { splitTopLevel, unquote } from './grammar'
import type { QueryBag } from './query-bag'
import { planRead } from './read-plan'
import { contentType, runRead, shapeBody } from './read'
import { contentRange, type Options, type RunContext } from './request-options'
import type { SchemaCache, Table } from './schema-cache'
import { parseSelect } from './select-parser'
import { Aliases, Params, ident, qualified } from './sql'

/** A string literal (column names in jsonb_build_object). */
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`

function recordType(columns: string[], table: Table) {
  return columns.map((c) => `${ident(c)} ${table.columns.get(c)!.type}`).join(', ')
}

/** The body of a POST or PATCH, read by its Content-Type (JSON, CSV or a form). */
const readBody = (req: ApiRequest) => parseBody(req.body, bodyKind(req.headers['content-type'], false), false)

function buildInsert(req: ApiRequest, table: Table, opts: Options, params: Params): string {
  const { rows, columns } = insertRows(readBody(req), req.query.get('columns'), table)
  const target = `insert into ${qualified(table)} as t0`
  let sql: string
  if (columns.length === 0) {
    if (rows.length > 1)
      throw new RestError(
        400,
        'PGRST102',
        'All object keys must match',
        'Rows without columns cannot be inserted in bulk',
      )
    sql = `${target} default values`
  } else if (opts.missingDefault) {
    // PostgREST's shape: each row is its columns' defaults overlaid by the keys it has. Every listed default is
    // evaluated for every row, given or not, so a sequence advances once per row as it does there.
    const defaults = columns.flatMap((c) => {
      const expr = table.columns.get(c)!.defaultExpr
      return expr === undefined ? [] : [`${literal(c)}, ${expr}`]
    })
    const p = params.add(JSON.stringify(rows))
    const cols = columns.map(ident).join(', ')
    const withDefaults = `(select jsonb_agg(jsonb_build_object(${defaults.join(', ')}) || _e order by _i) from jsonb_array_elements(${p}::jsonb) with ordinality _d(_e, _i))`
    sql = `${target} (${cols}) select ${cols} from jsonb_to_recordset(${withDefaults}) as _v(${recordType(columns, table)})`
  } else {
    const p = params.add(JSON.stringify(rows))
    const cols = columns.map(ident).join(', ')
    sql = `${target} (${cols}) select ${cols} from json_to_recordset(${p}::json) as _v(${recordType(columns, table)})`
  }
  if (rows.length === 0) sql += ' where false'
  return sql + onConflict(req, table, columns, opts)
}

function onConflict(req: ApiRequest, table: Table, columns: string[], opts: Options): string {
  const raw = req.query.get('on_conflict')
  if (!opts.resolution) return ''
  const target = raw !== null ? splitTopLevel(raw).map((c) => unquote(c.trim())) : table.primaryKey
  if (target.length === 0) throw parseError('"on_conflict" needs columns: the table has no primary key')
  checkColumns(target, table)
  const conflict = ` on conflict (${target.map(ident).join(', ')})`
  if (opts.resolution === 'ignore-duplicates' || columns.length === 0) return `${conflict} do nothing`
  return `${conflict} do update set ${columns.map((c) => `${ident(c)} = excluded.${ident(c)}`).join(', ')}`
}

function rootWhere(bag: QueryBag, schema: SchemaCache, table: Table, params: Params): string {
  const root = bag.get('')
  // Computed fields take the target row itself.
  const parts = (root?.conditions ?? []).map((c) => conditionSql(c, 't0', table, params, { schema, row: 't0' }))
  return parts.length ? ` where ${parts.join(' and ')}` : ''
}

/**
 * Hosted Supabase loads pg-safeupdate for the API roles: PostgREST sends a PATCH or DELETE without a filter as a
 * statement without WHERE, safeupdate raises 21000, and PostgREST answers 400 with PostgreSQL's error as it is
 * (Error.hs: 21000 ending in "requires a WHERE clause" is a client error). Neither engine here can load safeupdate,
 * so the gateway answers the same before running anything.
 */
const safeupdateRefusal = (statement: 'UPDATE' | 'DELETE') =>
  new RestError(400, '21000', `${statement} requires a WHERE clause`)

function buildUpdate(req: ApiRequest, schema: SchemaCache, table: Table, bag: QueryBag, params: Params): string | null {
  const kind = bodyKind(req.headers['content-type'], false)
  const body = parseBody(req.body, kind, false)
  // A CSV body is an array of lines; its one line is the patch.
  const patch: JsonObject = patchObject(
    kind === 'csv' && Array.isArray(body) && body.length === 1 ? body[0] : body,
    table,
  )
  const columns = Object.keys(patch)
  // With nothing to set no statement runs (PostgREST selects `where false` instead), so the filter's values must not
  // become unused parameters, and no UPDATE reaches safeupdate: an empty patch without a filter is a 204 there too.
  if (columns.length === 0) return null
  const where = rootWhere(bag, schema, table, params)
  if (!where) throw safeupdateRefusal('UPDATE')
  const p = params.add(JSON.stringify(patch))
  const sets = columns.map((c) => `${ident(c)} = _v.${ident(c)}`).join(', ')
  return `update ${qualified(table)} as t0 set ${sets} from json_to_record(${p}::json) as _v(${recordType(columns, table)})${where}`
}

function buildDelete(schema: SchemaCache, table: Table, bag: QueryBag, params: Params): string {
  const where = rootWhere(bag, schema, table, params)
  if (!where) throw safeupdateRefusal('DELETE')
  return `delete from ${qualified(table)} as t0${where}`
}

export async function runMutation(
  tx: Queryable,
  req: ApiRequest,
  schema: SchemaCache,
  table: Table,
  bag: QueryBag,
  opts: Options,
  run: RunContext,
): Promise<ApiResponse> {
  const params = new Params()
  const method = req.method
  const statement: string | null =
    method === 'POST'
      ? buildInsert(req, table, opts, params)
      : method === 'PATCH'
        ? buildUpdate(req, schema, table, bag, params)
        : buildDelete(schema, table, bag, params)
  // Only an upsert that may update needs to know whether any row was new.
  const upsert = method === 'POST' && opts.resolution === 'merge-duplicates' && statement !== null
  const inserted = upsert ? ', (t0.xmax = 0) as "pgrst_inserted"' : ''
  const headers: Record<string, string> = {}
  const status = (affected: number, insertedRows: number | undefined) =>
    method !== 'POST' ? 200 : upsert && affected > 0 && insertedRows === 0 ? 200 : 201
  const checkAffected = (affected: number) => {
    // PostgREST 12 applies max-affected to PATCH and DELETE, and only with handling=strict.
    if (opts.maxAffected !== undefined && opts.strict && method !== 'POST' && affected > opts.maxAffected) {
      throw new RestError(
        400,
        'PGRST124',
        'Query result exceeds max-affected preference constraint',
        `The query affects ${affected} rows`,
      )
    }
  }
  if (opts.returning !== 'representation') {
    let affected = 0
    let insertedRows: number | undefined
    if (statement !== null && upsert) {
      const r = await tx.query<{ affected: number; inserted: number }>(
        `with s as (${statement} returning true${inserted}) select count(*)::int as affected, count(*) filter (where "pgrst_inserted")::int as inserted from s`,
        params.values,
      )
      affected = Number(r.rows[0].affected)
      insertedRows = Number(r.rows[0].inserted)
    } else if (statement !== null) {
      affected = (await tx.query(statement, params.values)).affectedRows
    }
    checkAffected(affected)
    if (opts.single && affected !== 1) throw singleObjectError(affected)
    headers['content-range'] = contentRange(0, 0, opts.count ? affected : null)
    const s = status(affected, insertedRows)
    return { status: method === 'POST' ? s : 204, headers }
  }
  // The filters already chose the rows; the representation only selects and embeds over them.
  const rest: QueryBag = new Map(bag)
  const root = rest.get('')
  if (root) rest.set('', { ...root, conditions: [] })
  const source = statement === null ? `(select * from ${qualified(table)} where false)` : 'pgrst_source'
  const node = planRead({
    schema,
    table,
    source,
    items: parseSelect(req.query.get('select')),
    bag: rest,
    params,
    aliases: new Aliases(),
    aggregates: run.aggregates,
  })
  const prefix = statement === null ? '' : `with pgrst_source as (${statement} returning t0.*${inserted}) `
  const extra = upsert ? `select count(*) filter (where "pgrst_inserted") from pgrst_source` : undefined
  const result = await runRead(tx, node, params, { prefix, extra, stripNulls: opts.stripNulls })
  checkAffected(result.page)
  const body = shapeBody(result, opts)
  headers['content-type'] = contentType({ ...opts, csv: false })
  headers['content-range'] = opts.count ? `*/${result.page}` : '*/*'
  return { status: status(result.page, result.extra), headers, body }
}
