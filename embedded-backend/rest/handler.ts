/**
 * The PostgREST-compatible `/rest/v1` API: routes a request to a read, a mutation or an rpc, runs it in one
 * transaction as the request's role (so row-level security is Postgres's job), and answers in PostgREST's
 * shapes. The schema cache of each exposed schema loads at start, on `reload()`, and again (throttled) when
 * a request names a table or function it does not know, so tables created after start are found.
 */
import type { ApiRequest, ApiResponse, Handler } from '../context'
import { withRequestContext, type Db, type Queryable } from '../db/database'
import { loadRoleTimeouts, type RoleTimeouts } from '../db/role-timeouts'
import { RestError, errorResponse, json } from './errors'
import { loadDbConfig } from './db-config'
import { runMutation } from './mutate'
import { NAME_MIN_SCORE, closestMatch } from './fuzzy'
import { readQuery } from './query-bag'
import { memoized, planRead, renderNode } from './read-plan'
import { PlanCache, bindValues, markedQuery, readShape, slotsOf } from './plan-cache'
import { readResponse, runRead } from './read'
import { assertBoundedPatterns } from './regex-guard'
import { toMime } from './media'
import { readOptions, type Options, type PlanFormat, type RunContext } from './request-options'
import { resolveCall, runRpc } from './rpc'
import { DEFAULT_SCHEMAS, loadSchemaCaches, type SchemaCache, type Table } from './schema-cache'
import { parseSelect } from './select-parser'
import { Aliases, Params, qualified } from './sql'

export type RestHandler = Handler & {
  reload(): Promise<void>
  /** Stops listening for `notify pgrst`. */
  close(): Promise<void>
}

export type RestSettings = {
  db: Db
  /** `[api] max_rows`: the most rows a read returns (and the exact part of `count=estimated`). */
  maxRows?: number
  /** `[api] schemas`: the exposed schemas; the first is the default profile. */
  schemas?: string[]
  /**
   * `[api] db_aggregates_enabled` (PostgREST's db-aggregates-enabled, off by default as on hosted); the
   * authenticator role's `pgrst.db_aggregates_enabled` wins when set (db-config.ts).
   */
  aggregates?: boolean
  /**
   * `[api] db_plan_enabled`: `Accept: application/vnd.pgrst.plan` answers EXPLAIN (off by default); the
   * authenticator role's `pgrst.db_plan_enabled` wins when set.
   */
  planEnabled?: boolean
}

const RELOAD_ON_MISS_MS = 1000

/** Thrown inside the transaction to roll it back while still answering (`Prefer: tx=rollback`, plans). */
class Answer extends Error {
  constructor(readonly response: ApiResponse) {
    super('answered')
  }
}

export function createRestHandler({
  db,
  maxRows,
  schemas = DEFAULT_SCHEMAS,
  aggregates: configAggregates = false,
  planEnabled: configPlanEnabled = false,
}: RestSettings): RestHandler {
  let caches: Map<string, SchemaCache> | null = null
  let timeouts: RoleTimeouts = {}
  let loading: Promise<Map<string, SchemaCache>> | null = null
  let lastLoad = 0
  // What the in-database settings say (db-config.ts) over config.toml; `run` and `optionSettings` are read per request.
  const run: RunContext = { maxRows, aggregates: configAggregates }
  const optionSettings = { schemas, planEnabled: configPlanEnabled }
  const plans = new PlanCache()

  const load = () => {
    loading ??= Promise.all([loadSchemaCaches(db, schemas), loadRoleTimeouts(db), loadDbConfig(db)])
      .then(([s, t, c]) => {
        caches = s
        timeouts = t
        plans.clear()
        run.aggregates = c.aggregates ?? configAggregates
        optionSettings.planEnabled = c.planEnabled ?? configPlanEnabled
        lastLoad = Date.now()
        return s
      })
      .finally(() => {
        loading = null
      })
    return loading
  }
  const current = async (schema: string) => (caches ?? (await load())).get(schema)!
  /** A miss may mean the schema changed since the last load; reload at most once a second for misses. */
  const reloadOnMiss = async (schema: string, found: (s: SchemaCache) => boolean) => {
    const s = await current(schema)
    if (found(s) || Date.now() - lastLoad < RELOAD_ON_MISS_MS) return s
    return (await load()).get(schema)!
  }

  /** Runs `fn` in the request's transaction, honouring `Prefer: tx`, `timezone` and the plan Accept type. */
  async function transact(
    req: ApiRequest,
    opts: Options,
    fn: (tx: Queryable) => Promise<ApiResponse>,
  ): Promise<ApiResponse> {
    const context = {
      role: req.role,
      claims: req.claims,
      headers: req.headers,
      readOnly: req.method === 'GET' || req.method === 'HEAD',
      statementTimeout: timeouts[req.role],
    }
    try {
      return await withRequestContext(
        db,
        context,
        async (base) => {
          const tx = preparing(base)
          if (opts.timezone) {
            const r = await tx.query(
              `select set_config('timezone', name, true) from pg_timezone_names where name = $1`,
              [opts.timezone],
            )
            if (r.rows.length) opts.applied.push(`timezone=${opts.timezone}`)
          }
          const response = await fn(opts.plan ? explaining(tx, opts.plan) : tx)
          if (opts.tx === 'rollback') throw new Answer(response)
          return response
        },
        { oneStatement: isOneStatement(opts) },
      )
    } catch (error) {
      if (error instanceof Answer) return error.response
      throw error
    }
  }

  async function handle(req: ApiRequest, opts: Options): Promise<ApiResponse> {
    const segments = req.path.split('/').filter(Boolean).map(decodeSegment)
    if (segments.length === 0) return openApiRoot(await current(opts.schema))
    if (segments[0] === 'rpc' && segments.length === 2) {
      if (!['GET', 'HEAD', 'POST'].includes(req.method)) throw methodNotAllowed(req.method)
      const name = segments[1]
      const s = await reloadOnMiss(opts.schema, (x) => x.functions.has(name))
      const call = resolveCall(req, s, name)
      if (db.kind === 'pglite') assertBoundedPatterns(req.query, new Set(req.method === 'POST' ? [] : call.keys))
      return transact(req, opts, (tx) => runRpc(tx, req, s, call, opts, run))
    }
    if (segments.length !== 1) throw new RestError(404, 'PGRST125', `Invalid path specified in request URL`)
    const name = segments[0]
    const s = await reloadOnMiss(opts.schema, (x) => x.tables.has(name))
    const table = s.tables.get(name)
    if (!table) {
      const near = closestMatch(name, s.tables.keys(), NAME_MIN_SCORE)
      throw new RestError(
        404,
        'PGRST205',
        `Could not find the table '${s.schema}.${name}' in the schema cache`,
        null,
        near === undefined ? null : `Perhaps you meant the table '${s.schema}.${near}'`,
      )
    }
    if (db.kind === 'pglite') assertBoundedPatterns(req.query)
    if (req.method === 'GET' || req.method === 'HEAD') {
      return transact(req, opts, (tx) => read(tx, req, s, table, opts))
    }
    if (req.method === 'POST' || req.method === 'PATCH' || req.method === 'DELETE') {
      const bag = readQuery(req.query)
      return transact(req, opts, (tx) => runMutation(tx, req, s, table, bag, opts, run))
    }
    throw methodNotAllowed(req.method)
  }

  function planFor(query: URLSearchParams, s: SchemaCache, table: Table, opts: Options) {
    const params = new Params()
    const node = planRead({
      schema: s,
      table,
      source: qualified(table),
      items: parseSelect(query.get('select')),
      bag: readQuery(query),
      params,
      aliases: new Aliases(),
      aggregates: run.aggregates,
    })
    if (node.offset === undefined && opts.range) node.offset = opts.range.offset
    if (node.limit === undefined && opts.range?.limit !== undefined) node.limit = opts.range.limit
    if (maxRows !== undefined) node.limit = Math.min(node.limit ?? maxRows, maxRows)
    return { node, params }
  }

  /** A read's plan from the plan of its shape (plan-cache.ts), learnt on the shape's first request. */
  function cachedPlan(query: URLSearchParams, s: SchemaCache, table: Table, opts: Options) {
    const shape = opts.plan ? null : readShape(query, opts, s.schema, table.name)
    if (!shape) return planFor(query, s, table, opts)
    let plan = plans.get(shape.key)
    if (plan === undefined) {
      plan = learn(query, s, table, opts, shape.values.length)
      plans.set(shape.key, plan)
    }
    if (!plan) return planFor(query, s, table, opts)
    const params = new Params()
    params.values.push(...bindValues(plan, shape.values))
    return { node: plan.node, params }
  }

  function learn(query: URLSearchParams, s: SchemaCache, table: Table, opts: Options, slots: number) {
    let planned
    try {
      planned = planFor(markedQuery(query), s, table, opts)
    } catch {
      return null // the request's own planning reports the error
    }
    const { node, params } = planned
    const at = slotsOf(params.values, renderNode(node), slots)
    return at && { node: memoized(node), values: params.values, slots: at }
  }

  async function read(tx: Queryable, req: ApiRequest, s: SchemaCache, table: Table, opts: Options) {
    const { node, params } = cachedPlan(req.query, s, table, opts)
    const result = await runRead(tx, node, params, {
      count: opts.count,
      maxRows,
      csv: opts.csv,
      stripNulls: opts.stripNulls,
    })
    return readResponse(result, opts, node.offset ?? 0, req.method === 'HEAD')
  }

  const handler = async (req: ApiRequest): Promise<ApiResponse> => {
    try {
      // The settings negotiation reads (plans on or off) come with the first load.
      if (!caches) await load()
      const first = req.path.split('/').find(Boolean)
      const target = first === undefined ? 'root' : first === 'rpc' ? 'rpc' : 'table'
      const opts = readOptions(req.headers, req.method, optionSettings, target)
      const response = await handle(req, opts)
      const headers: Record<string, string> = { ...response.headers }
      if (opts.applied.length && !opts.plan) headers['preference-applied'] = opts.applied.join(', ')
      if (schemas.length > 1) headers['content-profile'] = opts.schema
      return { ...response, headers }
    } catch (error) {
      return errorResponse(error, req.role)
    }
  }
  // An explicit reload must see changes made after a load already in flight began, so it waits for that one first.
  const reload = async () => {
    await loading?.catch(() => {})
    await load()
  }
  // PostgREST's channel: `notify pgrst` (any payload: 'reload schema', 'reload config' or none) reloads both.
  const unlisten = db.listen?.('pgrst', () => {
    reload().catch((error: unknown) => console.error('[backend] REST reload on notify pgrst failed:', error))
  })
  unlisten?.catch(() => {})
  const close = async () => {
    await (
      await unlisten?.catch(() => undefined)
    )?.()
  }
  return Object.assign(handler, { reload, close })
}

/**
 * Whether the request is one statement whose answer cannot fail after it ran: then (on PostgreSQL) it commits
 * in the same round trip as its prelude and statement. Everything that adds a statement (the timezone,
 * a planned count, a plan) or may still roll back after it (`Prefer: tx=rollback`, the single-object
 * check, strict max-affected) keeps the explicit transaction. A handler that issues a second statement
 * anyway fails loudly (see TransactionOptions.oneStatement), it never commits half a request.
 */
function isOneStatement(opts: Options): boolean {
  return (
    !opts.single &&
    !opts.timezone &&
    !opts.plan &&
    opts.tx !== 'rollback' &&
    !(opts.maxAffected !== undefined && opts.strict) &&
    opts.count !== 'planned' &&
    opts.count !== 'estimated'
  )
}

/**
 * The REST API's statements are prepared on PostgreSQL: their texts repeat (values are bound parameters)
 * and their result columns are fixed (`total, page, body` or one JSON value), so a prepared plan stays valid.
 */
const preparing = (tx: Queryable): Queryable => ({
  query: (sql, params, options) => tx.query(sql, params, { prepare: true, ...options }),
  exec: (sql) => tx.exec(sql),
})

/**
 * A transaction handle that answers the first statement of the request with its execution plan instead of
 * its rows (PostgREST's `application/vnd.pgrst.plan`); throwing the answer also rolls back (with `analyze`).
 */
function explaining(tx: Queryable, plan: PlanFormat): Queryable {
  const options = [`format ${plan.format}`, ...plan.options].join(', ')
  return {
    exec: (sql) => tx.exec(sql),
    async query(sql, params) {
      const r = await tx.query<{ 'QUERY PLAN': unknown }>(`explain (${options}) ${sql}`, params)
      const mediaType = `application/vnd.pgrst.plan+${plan.format}; for="${toMime(plan.for)}"; charset=utf-8`
      const body =
        plan.format === 'json'
          ? JSON.stringify(
              typeof r.rows[0]['QUERY PLAN'] === 'string'
                ? JSON.parse(r.rows[0]['QUERY PLAN'])
                : r.rows[0]['QUERY PLAN'],
            )
          : r.rows.map((row) => String(row['QUERY PLAN'])).join('\n')
      throw new Answer({ status: 200, headers: { 'content-type': mediaType }, body })
    },
  }
}

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
