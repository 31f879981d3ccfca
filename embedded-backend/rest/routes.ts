/**
 * The REST API's routes: `/` (the OpenAPI description), `/rpc/<function>` and `/<table>`, each a small handler
 * that finds what the path names in the schema cache and runs the request in its transaction (transaction.ts).
 */
import type { ApiRequest, ApiResponse } from '../context'
import { RestError, json } from './errors'
import { NAME_MIN_SCORE, closestMatch } from './fuzzy'
import { runMutation } from './mutate'
import { readQuery } from './query-bag'
import { assertBoundedPatterns } from './regex-guard'
import type { Options, Target } from './request-options'
import { resolveCall, runRpc } from './rpc'
import type { SchemaCache, Table } from './schema-cache'
import type { RestState } from './state'
import { readTable } from './table-read'
import { transact } from './transaction'

type Route = (rest: RestState, req: ApiRequest, opts: Options, segments: string[]) => Promise<ApiResponse>
type TableRoute = (
  rest: RestState,
  req: ApiRequest,
  opts: Options,
  s: SchemaCache,
  table: Table,
) => Promise<ApiResponse>

/** PostgREST answers `/` with an OpenAPI description; the table and function names are what tools use. */
const root: Route = async (rest, _req, opts) => openApiRoot(await rest.current(opts.schema))

/** The methods a function is called with: its arguments in the query string (GET, HEAD) or the body (POST). */
const RPC_METHODS = new Set(['GET', 'HEAD', 'POST'])

const rpc: Route = async (rest, req, opts, segments) => {
  const name = segments[1]
  if (!RPC_METHODS.has(req.method)) throw methodNotAllowed(req.method)
  const s = await rest.reloadOnMiss(opts.schema, (x) => x.functions.has(name))
  const call = resolveCall(req, s, name)
  if (rest.db.kind === 'pglite') assertBoundedPatterns(req.query, new Set(req.method === 'POST' ? [] : call.keys))
  return transact(rest, req, opts, (tx) => runRpc(tx, req, s, call, opts, rest.run))
}

const read: TableRoute = (rest, req, opts, s, table) =>
  transact(rest, req, opts, (tx) => readTable(rest, tx, req, s, table, opts))

const mutate: TableRoute = (rest, req, opts, s, table) => {
  const bag = readQuery(req.query)
  return transact(rest, req, opts, (tx) => runMutation(tx, req, s, table, bag, opts, rest.run))
}

/** What each method does to a table (or view); any other method is 405. */
const tableRoutes = new Map<string, TableRoute>([
  ['GET', read],
  ['HEAD', read],
  ['POST', mutate],
  ['PATCH', mutate],
  ['DELETE', mutate],
])

const table: Route = async (rest, req, opts, segments) => {
  const name = segments[0]
  const s = await rest.reloadOnMiss(opts.schema, (x) => x.tables.has(name))
  const found = s.tables.get(name)
  if (!found) throw tableNotFound(s, name)
  if (rest.db.kind === 'pglite') assertBoundedPatterns(req.query)
  const route = tableRoutes.get(req.method)
  if (!route) throw methodNotAllowed(req.method)
  return route(rest, req, opts, s, found)
}

/** The paths, first match wins: `/rpc` alone names a table called rpc, as in PostgREST. */
const paths: { matches: (segments: string[]) => boolean; route: Route }[] = [
  { matches: (p) => p.length === 0, route: root },
  { matches: (p) => p.length === 2 && p[0] === 'rpc', route: rpc },
  { matches: (p) => p.length === 1, route: table },
]

/** What options apply to (request-options.ts), from the path's first segment as sent. */
export const targetOf = (first: string | undefined): Target =>
  first === undefined ? 'root' : first === 'rpc' ? 'rpc' : 'table'

/** Answers a request whose path is `segments` (decoded, empty ones left out). */
export function route(rest: RestState, req: ApiRequest, opts: Options, segments: string[]): Promise<ApiResponse> {
  for (const entry of paths) if (entry.matches(segments)) return entry.route(rest, req, opts, segments)
  throw new RestError(404, 'PGRST125', `Invalid path specified in request URL`)
}

export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw new RestError(400, 'PGRST125', 'Invalid path specified in request URL')
  }
}

const methodNotAllowed = (method: string) => new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`)

function tableNotFound(s: SchemaCache, name: string): RestError {
  const near = closestMatch(name, s.tables.keys(), NAME_MIN_SCORE)
  return new RestError(
    404,
    'PGRST205',
    `Could not find the table '${s.schema}.${name}' in the schema cache`,
    null,
    near === undefined ? null : `Perhaps you meant the table '${s.schema}.${near}'`,
  )
}

function openApiRoot(s: SchemaCache): ApiResponse {
  const paths: Record<string, object> = { '/': {} }
  for (const name of s.tables.keys()) paths[`/${name}`] = {}
  for (const name of s.functions.keys()) paths[`/rpc/${name}`] = {}
  return json(200, { swagger: '2.0', info: { title: 'PostgREST API', version: '12' }, basePath: '/', paths })
}
