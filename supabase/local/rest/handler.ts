/**
 * The PostgREST-compatible `/rest/v1` API: routes a request to a read, a mutation or an rpc, runs it in one
 * transaction as the request's role (so row-level security is Postgres's job), and answers in PostgREST's
 * shapes. The schema cache loads at start, on `reload()`, and again (throttled) when a request names a
 * table or function it does not know, so tables created after start are found.
 */
import type { ApiRequest, ApiResponse, Handler } from '../context'
import { withRequestContext, type Db, type Queryable, type RequestContext } from '../db/database'
import { RestError, errorResponse, json } from './errors'
import { runMutation } from './mutate'
import { readQuery } from './query-bag'
import { planRead } from './read-plan'
import { readResponse, runRead } from './read'
import { readOptions, type Options } from './request-options'
import { notFound, runRpc } from './rpc'
import { loadSchemaCache, type SchemaCache, type Table } from './schema-cache'
import { parseSelect } from './select-parser'
import { Aliases, Params, qualified } from './sql'

export type RestHandler = Handler & { reload(): Promise<void> }

const RELOAD_ON_MISS_MS = 1000

export function createRestHandler({ db, maxRows }: { db: Db; maxRows?: number }): RestHandler {
  let schema: SchemaCache | null = null
  let loading: Promise<SchemaCache> | null = null
  let lastLoad = 0

  const load = () => {
    loading ??= loadSchemaCache(db)
      .then((s) => {
        schema = s
        lastLoad = Date.now()
        return s
      })
      .finally(() => {
        loading = null
      })
    return loading
  }
  const current = async () => schema ?? (await load())
  /** A miss may mean the schema changed since the last load; reload at most once a second for misses. */
  const reloadOnMiss = async (found: (s: SchemaCache) => boolean) => {
    const s = await current()
    if (found(s) || Date.now() - lastLoad < RELOAD_ON_MISS_MS) return s
    return load()
  }

  async function handle(req: ApiRequest): Promise<ApiResponse> {
    const opts = readOptions(req.headers, req.method)
    const segments = req.path.split('/').filter(Boolean).map(decodeSegment)
    if (segments.length === 0) return openApiRoot(await current())
    const context: RequestContext = { role: req.role, claims: req.claims, headers: req.headers }
    /**
     * Every REST request is one statement. Unless the single-object Accept type asks for a row count check
     * after it (a failed check rolls back), it commits in the same round trip as its statement.
     */
    const run = <T>(fn: (tx: Queryable) => Promise<T>) =>
      withRequestContext(db, context, (tx) => fn(preparing(tx)), { oneStatement: !opts.single })
    if (segments[0] === 'rpc' && segments.length === 2) {
      if (!['GET', 'HEAD', 'POST'].includes(req.method)) throw methodNotAllowed(req.method)
      const name = segments[1]
      const s = await reloadOnMiss((x) => x.functions.has(name))
      const candidates = s.functions.get(name)
      if (!candidates) throw notFound(name, [])
      return run((tx) => runRpc(tx, req, s, name, candidates, opts))
    }
    if (segments.length !== 1) throw new RestError(404, 'PGRST125', `Invalid path specified in request URL`)
    const name = segments[0]
    const s = await reloadOnMiss((x) => x.tables.has(name))
    const table = s.tables.get(name)
    if (!table) {
      throw new RestError(404, 'PGRST205', `Could not find the table 'public.${name}' in the schema cache`)
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      return run((tx) => read(tx, req, s, table, opts))
    }
    if (req.method === 'POST' || req.method === 'PATCH' || req.method === 'DELETE') {
      const bag = readQuery(req.query)
      return run((tx) => runMutation(tx, req, s, table, bag, opts))
    }
    throw methodNotAllowed(req.method)
  }

  async function read(tx: Queryable, req: ApiRequest, s: SchemaCache, table: Table, opts: Options) {
    const params = new Params()
    const bag = readQuery(req.query)
    const node = planRead({ schema: s, table, source: qualified(table.name), items: parseSelect(req.query.get('select')), bag, params, aliases: new Aliases() })
    if (node.offset === undefined && opts.range) node.offset = opts.range.offset
    if (node.limit === undefined && opts.range?.limit !== undefined) node.limit = opts.range.limit
    if (maxRows !== undefined) node.limit = Math.min(node.limit ?? maxRows, maxRows)
    const result = await runRead(tx, node, params, opts.count)
    return readResponse(result, opts, node.offset ?? 0, req.method === 'HEAD')
  }

  const handler = async (req: ApiRequest): Promise<ApiResponse> => {
    try {
      return await handle(req)
    } catch (error) {
      return errorResponse(error, req.role)
    }
  }
  // An explicit reload must see changes made after a load already in flight began, so it waits for that one first.
  const reload = async () => {
    await loading?.catch(() => {})
    await load()
  }
  return Object.assign(handler, { reload })
}

/**
 * The REST API's statements are prepared on PostgreSQL: their texts repeat (values are bound parameters)
 * and their result columns are fixed (`total, page, body` or one JSON value), so a prepared plan stays valid.
 */
const preparing = (tx: Queryable): Queryable => ({
  query: (sql, params, options) => tx.query(sql, params, { prepare: true, ...options }),
  exec: (sql) => tx.exec(sql),
})

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw new RestError(400, 'PGRST125', 'Invalid path specified in request URL')
  }
}

const methodNotAllowed = (method: string) => new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`)

/** PostgREST answers `/` with an OpenAPI description; the table and function names are what tools use. */
function openApiRoot(s: SchemaCache): ApiResponse {
  const paths: Record<string, object> = { '/': {} }
  for (const name of s.tables.keys()) paths[`/${name}`] = {}
  for (const name of s.functions.keys()) paths[`/rpc/${name}`] = {}
  return json(200, { swagger: '2.0', info: { title: 'PostgREST API', version: '12' }, basePath: '/', paths })
}
