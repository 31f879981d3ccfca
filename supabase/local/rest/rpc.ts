/**
 * `/rpc/<fn>`: POST with named arguments in a JSON body, GET with them in the query string. Arguments
 * become typed values through `json_to_record`; the result is shaped by what the function returns:
 * a scalar (json included) as that JSON value, a set of scalars as an array, rows as objects that can be
 * selected, filtered, ordered and embedded like a table, and void as 204.
 */
import type { ApiRequest, ApiResponse } from '../context'
import type { Queryable } from '../db/database'
import { parseJsonBody } from './body'
import { RestError, json } from './errors'
import { readQuery } from './query-bag'
import { planRead } from './read-plan'
import { readResponse, runRead } from './read'
import type { Column, FunctionDef, SchemaCache, Table } from './schema-cache'
import { parseSelect } from './select-parser'
import { Aliases, Params, functionName, ident } from './sql'
import { contentRange, type Options, type RunContext } from './request-options'

type Args = Record<string, unknown>

export function notFound(schema: string, name: string, keys: string[]) {
  const list = [...keys].sort().join(', ')
  return new RestError(
    404,
    'PGRST202',
    `Could not find the function ${schema}.${name}${keys.length ? `(${list})` : ' without parameters'} in the schema cache`,
    `Searched for the function ${schema}.${name}${keys.length ? ` with parameter${keys.length > 1 ? 's' : ''} ${list}` : ' without parameters'} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
  )
}

/**
 * PostgREST 13 holds a set-returning call to `Prefer: handling=strict, max-affected=n` as it holds PATCH and
 * DELETE: more rows is 400 PGRST124 and the call's writes roll back (the error ends the transaction).
 */
function checkMaxAffected(opts: Options, rows: number) {
  if (opts.maxAffected === undefined || !opts.strict || rows <= opts.maxAffected) return
  throw new RestError(
    400,
    'PGRST124',
    'Query result exceeds max-affected preference constraint',
    `The query affects ${rows} rows`,
  )
}

const singleJsonArg = (f: FunctionDef) =>
  f.args.length === 1 && f.args[0].name === '' && (f.args[0].type === 'json' || f.args[0].type === 'jsonb')

export function chooseFunction(
  candidates: FunctionDef[],
  name: string,
  keys: string[],
): { fn: FunctionDef; whole: boolean } {
  const schema = candidates[0]?.schema ?? 'public'
  const fits = candidates.filter(
    (f) =>
      keys.every((k) => f.args.some((a) => a.name === k)) && f.args.every((a) => a.hasDefault || keys.includes(a.name)),
  )
  if (fits.length === 1) return { fn: fits[0], whole: false }
  if (fits.length > 1) {
    const exact = fits.filter((f) => f.args.length === keys.length)
    if (exact.length === 1) return { fn: exact[0], whole: false }
    throw new RestError(
      300,
      'PGRST203',
      `Could not choose the best candidate function between: ${fits.map((f) => `${f.schema}.${f.name}(${f.args.map((a) => `${a.name} => ${a.type}`).join(', ')})`).join(', ')}`,
      null,
      'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    )
  }
  const whole = candidates.find(singleJsonArg)
  if (whole) return { fn: whole, whole: true }
  throw notFound(schema, name, keys)
}

/** The `from` items and the call expression for one invocation. */
function callSql(fn: FunctionDef, args: Args, whole: boolean, params: Params): { from: string; call: string } {
  const name = functionName(fn)
  if (whole) return { from: '', call: `${name}(${params.typed(JSON.stringify(args), fn.args[0].type)})` }
  const keys = Object.keys(args)
  if (keys.length === 0) return { from: '', call: `${name}()` }
  const p = params.add(JSON.stringify(args))
  const types = keys.map((k) => `${ident(k)} ${fn.args.find((a) => a.name === k)!.type}`).join(', ')
  const named = keys.map(
    (k) => `${fn.args.find((a) => a.name === k)!.mode === 'variadic' ? 'variadic ' : ''}${ident(k)} := _a.${ident(k)}`,
  )
  return { from: `json_to_record(${p}::json) as _a(${types})`, call: `${name}(${named.join(', ')})` }
}

export async function runRpc(
  tx: Queryable,
  req: ApiRequest,
  schema: SchemaCache,
  name: string,
  candidates: FunctionDef[],
  opts: Options,
  run: RunContext,
): Promise<ApiResponse> {
  const isGet = req.method === 'GET' || req.method === 'HEAD'
  const argNames = new Set(candidates.flatMap((f) => f.args.map((a) => a.name)))
  let args: Args
  if (isGet) {
    args = {}
    for (const [k, v] of req.query) if (argNames.has(k)) args[k] = v
  } else {
    const body = parseJsonBody(req.body, true)
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new RestError(400, 'PGRST102', 'Empty or invalid json', 'Expected a JSON object of named arguments')
    }
    args = body as Args
  }
  const { fn, whole } = chooseFunction(candidates, name, Object.keys(args))
  const params = new Params()
  const { from, call } = callSql(fn, args, whole, params)
  const fromClause = from ? ` from ${from}` : ''
  if (fn.shape === 'void') {
    await tx.query(`select ${call}${fromClause}`, params.values)
    return { status: 204, headers: {} }
  }
  if (fn.shape === 'scalar' && !fn.returnsSet) {
    const r = await tx.query<{ body: string | null }>(
      `select to_json(${call})::text as body${fromClause}`,
      params.values,
    )
    // PostgREST answers a scalar call as a one-row result: Content-Range 0-0/*, or 0-0/1 when a count is asked
    // (supabase-js then reports count 1), and HEAD gets the headers without the value.
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'content-range': contentRange(0, 1, opts.count ? 1 : null),
    }
    return { status: 200, headers, body: req.method === 'HEAD' ? undefined : (r.rows[0]?.body ?? 'null') }
  }
  if (fn.shape === 'scalar') {
    const lateral = from ? `${from}, lateral ` : ''
    const r = await tx.query<{ body: string; page: number }>(
      `select coalesce(json_agg(_r.v), '[]')::text as body, count(*)::int as page from ${lateral}${call} as _r(v)`,
      params.values,
    )
    const page = Number(r.rows[0].page)
    checkMaxAffected(opts, page)
    // Every row is returned, so the count is the page (planned and estimated included).
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'content-range': contentRange(0, page, opts.count ? page : null),
    }
    return { status: 200, headers, body: req.method === 'HEAD' ? undefined : r.rows[0].body }
  }
  const table = fn.table ? schema.tables.get(fn.table) : undefined
  const pseudo: Table = table ?? {
    schema: fn.schema,
    name: fn.name,
    kind: 'view',
    columns: new Map(fn.columns.map((c: Column) => [c.name, c])),
    primaryKey: [],
    uniqueKeys: [],
  }
  const source = `(select _f.* from ${from ? `${from}, lateral ` : ''}${call} as _f)`
  const bag = readQuery(req.query, isGet ? argNames : new Set())
  const node = planRead({
    schema,
    table: pseudo,
    source,
    items: parseSelect(req.query.get('select')),
    bag,
    params,
    aliases: new Aliases(),
    aggregates: run.aggregates,
  })
  const root = bag.get('')
  const offset = root?.offset ?? opts.range?.offset ?? 0
  if (node.offset === undefined && opts.range) node.offset = opts.range.offset
  if (node.limit === undefined && opts.range?.limit !== undefined) node.limit = opts.range.limit
  if (run.maxRows !== undefined) node.limit = Math.min(node.limit ?? run.maxRows, run.maxRows)
  const result = await runRead(tx, node, params, { count: opts.count, maxRows: run.maxRows, csv: opts.csv })
  if (fn.returnsSet) checkMaxAffected(opts, result.page)
  if (!fn.returnsSet && !opts.single) {
    const rows = JSON.parse(result.body) as unknown[]
    const answer = json(200, rows[0] ?? null, {
      'content-range': contentRange(0, result.page, opts.count ? result.page : null),
    })
    return req.method === 'HEAD' ? { ...answer, body: undefined } : answer
  }
  return readResponse(result, opts, offset, req.method === 'HEAD')
}
