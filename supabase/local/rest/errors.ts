/**
 * PostgREST's error shape and status codes. supabase-js surfaces `{code, message, details, hint}` to the
 * app as they are, and retries 503/520, so a client mistake must map to a 4xx and nothing maps to those two.
 */
import type { ApiResponse } from '../context'
import type { ApiRole } from '../keys'

export type RestErrorBody = { code: string; message: string; details: unknown; hint: string | null }

/** A request the gateway rejects before (or instead of) running SQL. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** A string, or (PGRST201) the list of candidate relationships. */
    readonly details: unknown = null,
    readonly hint: string | null = null,
  ) {
    super(message)
  }
}

/** PGRST100: the query string does not follow PostgREST's grammar. */
export const parseError = (message: string, details: string | null = null) =>
  new RestError(400, 'PGRST100', message, details)

export const singleObjectError = (rows: number) =>
  new RestError(
    406,
    'PGRST116',
    'Cannot coerce the result to a single JSON object',
    `The result contains ${rows} rows`,
  )

type PgError = { code?: unknown; message?: unknown; detail?: unknown; hint?: unknown }

function isPgError(error: unknown): error is PgError & { code: string } {
  return typeof error === 'object' && error !== null && typeof (error as PgError).code === 'string'
}

/** PostgREST's table from SQLSTATE to HTTP status, with every server-side class kept at 500, never 503. */
export function statusForSqlState(code: string, role: ApiRole): number {
  if (/^PT\d{3}$/.test(code)) return Number(code.slice(2))
  if (code === '42501') return role === 'anon' ? 401 : 403
  if (code === '23503' || code === '23505') return 409
  if (code === '25006') return 405
  if (code === '42883' || code === '42P01') return 404
  if (code === 'P0001') return 400
  if (code === '42P17') return 500
  if (code.startsWith('54')) return 413
  if (code.startsWith('0L') || code.startsWith('0P') || code.startsWith('28')) return 403
  const serverClasses = ['08', '09', '25', '2D', '38', '39', '3B', '40', '53', '55', '57', '58', 'F0', 'HV', 'P0', 'XX']
  if (serverClasses.some((c) => code.startsWith(c))) return 500
  return 400
}

export function errorResponse(error: unknown, role: ApiRole): ApiResponse {
  if (error instanceof RestError) {
    return json(error.status, { code: error.code, message: error.message, details: error.details, hint: error.hint })
  }
  if (isPgError(error)) {
    const body: RestErrorBody = {
      code: error.code,
      message: String(error.message ?? ''),
      details: typeof error.detail === 'string' ? error.detail : null,
      hint: typeof error.hint === 'string' ? error.hint : null,
    }
    return json(statusForSqlState(error.code, role), body)
  }
  throw error
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): ApiResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) }
}
