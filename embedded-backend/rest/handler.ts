/**
 * The PostgREST-compatible `/rest/v1` API: routes a request to a read, a mutation or an rpc, runs it in one
 * transaction as the request's role (so row-level security is Postgres's job), and answers in PostgREST's
 * shapes. The routes are a table of small handlers (routes.ts); what the handler knows between requests (schema
 * cache, settings, plans) is state.ts; the request's transaction is transaction.ts.
 */
import type { ApiRequest, ApiResponse, Handler } from '../context'
import type { Db } from '../db/database'
import { errorResponse } from './errors'
import { readOptions } from './request-options'
import { decodeSegment, route, targetOf } from './routes'
import { DEFAULT_SCHEMAS } from './schema-cache'
import { RestState } from './state'

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

export function createRestHandler({
  db,
  maxRows,
  schemas = DEFAULT_SCHEMAS,
  aggregates = false,
  planEnabled = false,
}: RestSettings): RestHandler {
  const rest = new RestState(db, schemas, { maxRows, aggregates, planEnabled })
  const handler = async (req: ApiRequest): Promise<ApiResponse> => {
    try {
      // The settings negotiation reads (plans on or off) come with the first load.
      if (!rest.caches) await rest.load()
      const sent = req.path.split('/').filter(Boolean)
      const opts = readOptions(req.headers, req.method, rest.optionSettings, targetOf(sent[0]))
      const response = await route(rest, req, opts, sent.map(decodeSegment))
      const applied = opts.applied.length > 0 && !opts.plan
      // Most answers need no header added: they go out as the route made them.
      if (!applied && schemas.length <= 1) return response.headers ? response : { ...response, headers: {} }
      const headers: Record<string, string> = { ...response.headers }
      if (applied) headers['preference-applied'] = opts.applied.join(', ')
      if (schemas.length > 1) headers['content-profile'] = opts.schema
      return { ...response, headers }
    } catch (error) {
      return errorResponse(error, req.role)
    }
  }
  const reload = () => rest.reload()
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
