/**
 * `/rpc/<fn>`: POST with named arguments in a JSON body, GET with them in the query string. Arguments
 * become typed values through `json_to_record`; the result is shaped by what the function returns:
 * a scalar (json included) as that JSON value, a set of scalars as an array, rows as objects that can be
 * selected, filtered, ordered and embedded like a table, and void as 204.
 */
import type { ApiRequest, ApiResponse } from '../context'
import type { Queryable } from '../db/database'
import { parseBody } from './body'
import { bodyKind, type BodyKind } from './media'
import { RestError, json } from './errors'
import { readQuery } from './query-bag'
import { planRead } from './read-plan'
import { contentType, readResponse, runRead, stripped } from './read'
import type { Column, FunctionDef, SchemaCache, Table } from './schema-cache'
import { parseOperation } from './filter-parser'
import { NAME_MIN_SCORE, closestMatch } from './fuzzy'
import { splitTopLevel, unquote } from './grammar'
import { parseSelect } from './select-parser'
import { Aliases, Params, functionName, ident } from './sql'
import { contentRange, type Options, type RunContext } from './request-options'

type Args = Record<string, unknown>

/** The raw body kinds: their only argument is the whole body, and PostgREST's messages say so. */
const RAW_KINDS: BodyKind[] = ['text', 'xml', 'bytea']

/** A resolved call: the function, the argument keys of the request, and the arguments as named values. */
export type RpcCall = { fn: FunctionDef; keys: string[]; args: Args; kind: BodyKind | 'query' }

export function notFound(
  schema: SchemaCache,
  name: string,
  keys: string[],
  kind: BodyKind | 'query' = 'json',
  overloads: FunctionDef[] = [],
) {
  const sorted = [...keys].sort()
  const list = sorted.join(', ')
  const raw = RAW_KINDS.includes(kind as BodyKind)
  const withParams = sorted.length ? ` with parameter${sorted.length > 1 ? 's' : ''} ${list}` : ' without parameters'
  const searched =
    kind === 'text' || kind === 'xml' || kind === 'bytea'
      ? ` with a single unnamed ${kind} parameter`
      : kind === 'json'
        ? `${withParams} or with a single unnamed json/jsonb parameter`
        : withParams
  return new RestError(
    404,
    'PGRST202',
    `Could not find the function ${schema.schema}.${name}${raw ? '' : sorted.length ? `(${list})` : ' without parameters'} in the schema cache`,
    `Searched for the function ${schema.schema}.${name}${searched}, but no matches were found in the schema cache.`,
    raw ? null : noRpcHint(schema, name, sorted, overloads),
  )
}

/**
 * PostgREST's hint for PGRST202: with overloads of that name, the closest of their parameter lists (sorted names
 * in parentheses) to the names given; without, the closest function name of the schema.
 */
function noRpcHint(schema: SchemaCache, name: string, keys: string[], overloads: FunctionDef[]): string | null {
  const listed = (names: string[]) => `(${[...names].sort().join(', ')})`
  const match = overloads.length
    ? closestMatch(
        listed(keys),
        overloads.map((f) => listed(f.args.map((a) => a.name))),
      )
    : closestMatch(
        name,
        [...schema.functions].filter(([, fs]) => fs.some((f) => f.callable)).map(([n]) => n),
        NAME_MIN_SCORE,
      )
  if (match === undefined) return null
  return `Perhaps you meant to call the function ${schema.schema}.${overloads.length ? name : ''}${match}`
}

/**
 * PostgREST's order of overloads (its `Ord Routine`): fewer parameters first, then the parameter lists compared
 * by name, type, whether required and whether variadic. The ambiguity message lists candidates in this order.
 */
function compareOverloads(a: FunctionDef, b: FunctionDef): number {
  if (a.args.length !== b.args.length) return a.args.length - b.args.length
  for (let i = 0; i < a.args.length; i++) {
    const x = a.args[i]
    const y = b.args[i]
    const order: [string | boolean, string | boolean][] = [
      [x.name, y.name],
      [x.type, y.type],
      [!x.hasDefault, !y.hasDefault],
      [x.mode === 'variadic', y.mode === 'variadic'],
    ]
    for (const [p, q] of order) if (p !== q) return p < q ? -1 : 1
  }
  return 0
}

/**
 * PostgREST's `findProc`: overloads are told apart by the names of the arguments given, never by their values'
 * types. A function matches when every required parameter is given and every other key is one of its optional
 * ones (an unnamed parameter is the key ""); a function without parameters matches no keys. When nothing matches,
 * a POST may still reach a function whose single parameter takes the whole body by its Content-Type (json or
 * jsonb for JSON, text, xml, bytea). More than one candidate is 300 PGRST203; none is 404 PGRST202.
 */
export function chooseFunction(
  schema: SchemaCache,
  name: string,
  keys: string[],
  kind: BodyKind | 'query',
): FunctionDef {
  const overloads = callableOverloads(schema.functions.get(name))
  const given = new Set(keys)
  const matching = overloads.filter((f) => matches(f, given, kind))
  const chosen = matching.length
    ? matching
    : overloads.filter((f) => !matches(f, given, kind) && takesWholeBody(f, kind))
  if (chosen.length === 1) return chosen[0]
  if (chosen.length === 0) throw notFound(schema, name, keys, kind, overloads)
  throw new RestError(
    300,
    'PGRST203',
    `Could not choose the best candidate function between: ${chosen.map((f) => `${f.schema}.${f.name}(${f.args.map((a) => `${a.name} => ${a.type}`).join(', ')})`).join(', ')}`,
    null,
    'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
  )
}

/** The callable overloads of one name in PostgREST's order, worked out once per schema cache load. */
const overloadOrder = new WeakMap<FunctionDef[], FunctionDef[]>()
const NO_OVERLOADS: FunctionDef[] = []

function callableOverloads(all: FunctionDef[] | undefined): FunctionDef[] {
  if (!all) return NO_OVERLOADS
  let sorted = overloadOrder.get(all)
  if (!sorted) {
    sorted = all.filter((f) => f.callable).sort(compareOverloads)
    overloadOrder.set(all, sorted)
  }
  return sorted
}

/** Whether `f` takes exactly the keys given: every required parameter, and otherwise only optional ones. */
function matches(f: FunctionDef, given: Set<string>, kind: BodyKind | 'query'): boolean {
  if (f.args.length === 0) return given.size === 0 && !(kind !== 'query' && RAW_KINDS.includes(kind))
  const required = f.args.filter((a) => !a.hasDefault).map((a) => a.name)
  const optional = new Set(f.args.filter((a) => a.hasDefault).map((a) => a.name))
  const rest = [...given].filter((k) => !optional.has(k))
  return rest.length === new Set(required).size && required.every((r) => given.has(r))
}

/** A POST whose body, by its Content-Type, is the single parameter's whole value (json or jsonb, text, xml, bytea). */
function takesWholeBody(f: FunctionDef, kind: BodyKind | 'query'): boolean {
  if (kind === 'query' || f.args.length !== 1) return false
  const type = f.args[0].type
  return (
    (kind === 'json' && (type === 'json' || type === 'jsonb')) ||
    (kind === 'text' && type === 'text') ||
    (kind === 'xml' && type === 'xml') ||
    (kind === 'bytea' && type === 'bytea')
  )
}

/** Query keys that are filters or reserved words rather than arguments (PostgREST's `qsParams` for GET calls). */
function isArgumentKey(key: string, value: string): boolean {
  if (['select', 'columns', 'on_conflict'].includes(key) || key.includes('.')) return false
  if (['order', 'limit', 'offset', 'and', 'or'].includes(key)) return false
  try {
    parseOperation({ name: key, path: [] }, value, false)
    return false
  } catch {
    return true
  }
}

/**
 * Reads the arguments of a call (the query string for GET and HEAD; the body for POST, by its Content-Type)
 * and picks the function they name.
 */
export function resolveCall(req: ApiRequest, schema: SchemaCache, name: string): RpcCall {
  if (req.method === 'GET' || req.method === 'HEAD') {
    const args: Args = {}
    for (const [k, v] of req.query) if (isArgumentKey(k, v)) args[k] = v
    const keys = Object.keys(args)
    return { fn: chooseFunction(schema, name, keys, 'query'), keys, args, kind: 'query' }
  }
  const kind = bodyKind(req.headers['content-type'], true)
  if (RAW_KINDS.includes(kind)) return { fn: chooseFunction(schema, name, [], kind), keys: [], args: {}, kind }
  let args: Args
  if (kind === 'form') {
    args = Object.fromEntries(new URLSearchParams(req.body.toString('utf8')))
  } else {
    let body = parseBody(req.body, kind, true)
    if (kind === 'csv') {
      // A CSV body's one line is the named arguments (several lines, PostgREST's bulk call, are not read here).
      if (!Array.isArray(body) || body.length !== 1) {
        throw new RestError(400, 'PGRST102', 'A CSV body for a function must be one header line and one line of values')
      }
      body = body[0]
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      // Only a function taking the whole body can take something other than an object of named arguments.
      const fn = chooseFunction(schema, name, [], kind)
      if (fn.args.length === 1 && (fn.args[0].type === 'json' || fn.args[0].type === 'jsonb')) {
        return { fn, keys: [], args: {}, kind }
      }
      throw new RestError(400, 'PGRST102', 'Empty or invalid json', 'Expected a JSON object of named arguments')
    }
    args = body as Args
  }
  const columns = req.query.get('columns')
  const keys = columns === null ? Object.keys(args) : splitTopLevel(columns).map((c) => unquote(c.trim()))
  return { fn: chooseFunction(schema, name, keys, kind), keys, args, kind }
}

/** The `from` items and the call expression for one invocation. */
function callSql(req: ApiRequest, call: RpcCall, params: Params): { from: string; call: string } {
  const { fn, args, kind } = call
  const name = functionName(fn)
  if (fn.args.length === 1 && fn.args[0].name === '') {
    // One unnamed parameter receives the whole body (or, from a query string or form, its values as JSON).
    const type = fn.args[0].type
    if (kind === 'query' || kind === 'form')
      return { from: '', call: `${name}(${params.typed(JSON.stringify(args), type)})` }
    const text = req.body.toString(type === 'bytea' ? 'hex' : 'utf8')
    if (type === 'bytea') return { from: '', call: `${name}(decode(${params.add(text)}, 'hex'))` }
    return { from: '', call: `${name}(${params.typed(text.trim() === '' && kind === 'json' ? '{}' : text, type)})` }
  }
  // Only the keys that are the chosen function's parameters are passed (a whole-body fallback gets none).
  const keys = call.keys.filter((k) => fn.args.some((a) => a.name === k) && k in args)
  if (keys.length === 0) return { from: '', call: `${name}()` }
  const p = params.add(JSON.stringify(Object.fromEntries(keys.map((k) => [k, args[k]]))))
  const types = keys.map((k) => `${ident(k)} ${fn.args.find((a) => a.name === k)!.type}`).join(', ')
  const named = keys.map(
    (k) => `${fn.args.find((a) => a.name === k)!.mode === 'variadic' ? 'variadic ' : ''}${ident(k)} := _a.${ident(k)}`,
  )
  return { from: `json_to_record(${p}::json) as _a(${types})`, call: `${name}(${named.join(', ')})` }
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

export async function runRpc(
  tx: Queryable,
  req: ApiRequest,
  schema: SchemaCache,
  resolved: RpcCall,
  opts: Options,
  run: RunContext,
): Promise<ApiResponse> {
  const params = new Params()
  const { from, call } = callSql(req, resolved, params)
  const { fn } = resolved
  if (fn.shape === 'void') return callVoid(tx, params, from, call)
  if (fn.shape === 'scalar' && !fn.returnsSet) return callScalar(tx, req, params, from, call, opts)
  if (fn.shape === 'scalar') return callScalarSet(tx, req, params, from, call, opts)
  return callRows(tx, req, schema, resolved, opts, run, params, from, call)
}

/** A void function: run, answered 204. */
async function callVoid(tx: Queryable, params: Params, from: string, call: string): Promise<ApiResponse> {
  await tx.query(`select ${call}${from ? ` from ${from}` : ''}`, params.values)
  return { status: 204, headers: {} }
}

/** The content type of a call answered as plain JSON (the stripped-nulls array type when asked). */
const jsonType = (opts: Options) =>
  opts.stripNulls ? contentType({ ...opts, csv: false }) : 'application/json; charset=utf-8'

/**
 * A scalar: PostgREST answers it as a one-row result: Content-Range 0-0/*, or 0-0/1 when a count is asked
 * (supabase-js then reports count 1), and HEAD gets the headers without the value.
 */
async function callScalar(
  tx: Queryable,
  req: ApiRequest,
  params: Params,
  from: string,
  call: string,
  opts: Options,
): Promise<ApiResponse> {
  const r = await tx.query<{ body: string | null }>(
    `select ${stripped(`to_json(${call})`, opts.stripNulls)}::text as body${from ? ` from ${from}` : ''}`,
    params.values,
  )
  const headers = { 'content-type': jsonType(opts), 'content-range': contentRange(0, 1, opts.count ? 1 : null) }
  return { status: 200, headers, body: req.method === 'HEAD' ? undefined : (r.rows[0]?.body ?? 'null') }
}

/** A set of scalars: one JSON array; every row is returned, so the count is the page (planned and estimated included). */
async function callScalarSet(
  tx: Queryable,
  req: ApiRequest,
  params: Params,
  from: string,
  call: string,
  opts: Options,
): Promise<ApiResponse> {
  const lateral = from ? `${from}, lateral ` : ''
  const r = await tx.query<{ body: string; page: number }>(
    `select ${stripped(`coalesce(json_agg(_r.v), '[]')`, opts.stripNulls)}::text as body, count(*)::int as page from ${lateral}${call} as _r(v)`,
    params.values,
  )
  const page = Number(r.rows[0].page)
  checkMaxAffected(opts, page)
  const headers = { 'content-type': jsonType(opts), 'content-range': contentRange(0, page, opts.count ? page : null) }
  return { status: 200, headers, body: req.method === 'HEAD' ? undefined : r.rows[0].body }
}

/** The table a function's rows are read as: its return table, or one made of its output columns. */
function rowsTable(schema: SchemaCache, fn: FunctionDef): Table {
  const table = fn.table ? schema.tables.get(fn.table) : undefined
  return (
    table ?? {
      schema: fn.schema,
      name: fn.name,
      kind: 'view',
      columns: new Map(fn.columns.map((c: Column) => [c.name, c])),
      primaryKey: [],
      uniqueKeys: [],
    }
  )
}

/** Rows: read like a table (select, filters, order, embeds); one row unless the function returns a set. */
async function callRows(
  tx: Queryable,
  req: ApiRequest,
  schema: SchemaCache,
  resolved: RpcCall,
  opts: Options,
  run: RunContext,
  params: Params,
  from: string,
  call: string,
): Promise<ApiResponse> {
  const { fn } = resolved
  const isGet = req.method === 'GET' || req.method === 'HEAD'
  const bag = readQuery(req.query, isGet ? new Set(resolved.keys) : new Set())
  const node = planRead({
    schema,
    table: rowsTable(schema, fn),
    source: `(select _f.* from ${from ? `${from}, lateral ` : ''}${call} as _f)`,
    items: parseSelect(req.query.get('select')),
    bag,
    params,
    aliases: new Aliases(),
    aggregates: run.aggregates,
  })
  const offset = bag.get('')?.offset ?? opts.range?.offset ?? 0
  if (node.offset === undefined && opts.range) node.offset = opts.range.offset
  if (node.limit === undefined && opts.range?.limit !== undefined) node.limit = opts.range.limit
  if (run.maxRows !== undefined) node.limit = Math.min(node.limit ?? run.maxRows, run.maxRows)
  const result = await runRead(tx, node, params, {
    count: opts.count,
    maxRows: run.maxRows,
    csv: opts.csv,
    stripNulls: opts.stripNulls,
  })
  if (fn.returnsSet) checkMaxAffected(opts, result.page)
  if (!fn.returnsSet && !opts.single) {
    const rows = JSON.parse(result.body) as unknown[]
    const answer = json(200, rows[0] ?? null, {
      'content-range': contentRange(0, result.page, opts.count ? result.page : null),
      ...(opts.stripNulls ? { 'content-type': contentType({ ...opts, csv: false }) } : {}),
    })
    return req.method === 'HEAD' ? { ...answer, body: undefined } : answer
  }
  return readResponse(result, opts, offset, req.method === 'HEAD')
}
