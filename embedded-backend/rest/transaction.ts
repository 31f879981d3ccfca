/**
 * The request's transaction: the request's role, claims and statement timeout set in its prelude (so row-level
 * security is Postgres's job), `Prefer: tx` and `timezone` honoured, and the execution-plan Accept type answered.
 */
import type { ApiRequest, ApiResponse } from '../context'
import { withRequestContext, type Queryable, type QueryOptions } from '../db/database'
import { toMime } from './media'
import type { Options, PlanFormat } from './request-options'
import type { RestState } from './state'

/** Thrown inside the transaction to roll it back while still answering (`Prefer: tx=rollback`, plans). */
class Answer extends Error {
  constructor(readonly response: ApiResponse) {
    super('answered')
  }
}

/** Runs `fn` in the request's transaction, honouring `Prefer: tx`, `timezone` and the plan Accept type. */
export async function transact(
  rest: RestState,
  req: ApiRequest,
  opts: Options,
  fn: (tx: Queryable) => Promise<ApiResponse>,
): Promise<ApiResponse> {
  const context = {
    role: req.role,
    claims: req.claims,
    headers: req.headers,
    readOnly: req.method === 'GET' || req.method === 'HEAD',
    statementTimeout: rest.timeouts[req.role],
  }
  try {
    return await withRequestContext(
      rest.db,
      context,
      async (base) => {
        const tx = preparing(base)
        if (opts.timezone) {
          const r = await tx.query(`select set_config('timezone', name, true) from pg_timezone_names where name = $1`, [
            opts.timezone,
          ])
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
const preparing = (tx: Queryable): Queryable => new Preparing(tx)

const PREPARE = { prepare: true }

class Preparing implements Queryable {
  constructor(private readonly tx: Queryable) {}
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions) {
    return this.tx.query<T>(sql, params, options ? { prepare: true, ...options } : PREPARE)
  }
  exec(sql: string) {
    return this.tx.exec(sql)
  }
}

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
