/**
 * A read of a table or view (GET and HEAD): its plan from the plan of its shape (plan-cache.ts), learnt on the
 * shape's first request, then one statement and PostgREST's answer (read.ts).
 */
import type { ApiRequest, ApiResponse } from '../context'
import type { Queryable } from '../db/database'
import { bindValues, markedQuery, readShape, slotsOf } from './plan-cache'
import { readQuery } from './query-bag'
import { readResponse, runRead } from './read'
import { memoized, planRead, renderNode } from './read-plan'
import type { Options } from './request-options'
import type { SchemaCache, Table } from './schema-cache'
import { parseSelect } from './select-parser'
import { Aliases, Params, qualified } from './sql'
import type { RestState } from './state'

export async function readTable(
  rest: RestState,
  tx: Queryable,
  req: ApiRequest,
  s: SchemaCache,
  table: Table,
  opts: Options,
): Promise<ApiResponse> {
  const { node, params } = cachedPlan(rest, req.query, s, table, opts)
  const result = await runRead(tx, node, params, {
    count: opts.count,
    maxRows: rest.run.maxRows,
    csv: opts.csv,
    stripNulls: opts.stripNulls,
  })
  return readResponse(result, opts, node.offset ?? 0, req.method === 'HEAD')
}

function planFor(rest: RestState, query: URLSearchParams, s: SchemaCache, table: Table, opts: Options) {
  const { maxRows, aggregates } = rest.run
  const params = new Params()
  const node = planRead({
    schema: s,
    table,
    source: qualified(table),
    items: parseSelect(query.get('select')),
    bag: readQuery(query),
    params,
    aliases: new Aliases(),
    aggregates,
  })
  if (node.offset === undefined && opts.range) node.offset = opts.range.offset
  if (node.limit === undefined && opts.range?.limit !== undefined) node.limit = opts.range.limit
  if (maxRows !== undefined) node.limit = Math.min(node.limit ?? maxRows, maxRows)
  return { node, params }
}

/** A read's plan from the plan of its shape (plan-cache.ts), learnt on the shape's first request. */
function cachedPlan(rest: RestState, query: URLSearchParams, s: SchemaCache, table: Table, opts: Options) {
  const shape = opts.plan ? null : readShape(query, opts, s.schema, table.name)
  if (!shape) return planFor(rest, query, s, table, opts)
  let plan = rest.plans.get(shape.key)
  if (plan === undefined) {
    plan = learn(rest, query, s, table, opts, shape.values.length)
    rest.plans.set(shape.key, plan)
  }
  if (!plan) return planFor(rest, query, s, table, opts)
  const params = new Params()
  params.values.push(...bindValues(plan, shape.values))
  return { node: plan.node, params }
}

function learn(rest: RestState, query: URLSearchParams, s: SchemaCache, table: Table, opts: Options, slots: number) {
  let planned
  try {
    planned = planFor(rest, markedQuery(query), s, table, opts)
  } catch {
    return null // the request's own planning reports the error
  }
  const { node, params } = planned
  const at = slotsOf(params.values, renderNode(node), slots)
  return at && { node: memoized(node), values: params.values, slots: at }
}
