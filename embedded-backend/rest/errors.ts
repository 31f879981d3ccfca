/**
 * PostgREST's error shape and status codes. supabase-js surfaces `{code, message, details, hint}` to the
 * app as they are, and retries 503/520, so a client mistake must map to a 4xx; only an outage (the database
 * unreachable, out of connections) is a 503, as PostgREST answers it, and its body never names the database's
 * host or port.
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
  new RestError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${rows} rows`)

type PgError = { code?: unknown; message?: unknown; detail?: unknown; hint?: unknown }

/** A PostgreSQL error carries a five-character SQLSTATE; a socket's error code (ECONNREFUSED…) is not one. */
function isPgError(error: unknown): error is PgError & { code: string } {
  return typeof error === 'object' && error !== null && /^[0-9A-Z]{5}$/.test(String((error as PgError).code))
}

/**
 * The database could not be reached or the connection broke: a socket error (ECONNREFUSED, ECONNRESET, …),
 * or node-postgres's own "Connection terminated" errors, which carry no code at all.
 */
function isConnectionFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return true
  const message = String((error as { message?: unknown }).message ?? '')
  return /^Connection terminated|^Client has encountered a connection error|^The database connection is closed/.test(
    message,
  )
}

/** PostgREST's PGRST001 (503): what a client sees while the database is down, with no host or port in it. */
export const databaseUnavailable = () =>
  new RestError(
    503,
    'PGRST001',
    'Could not connect with the database due to an internal error.',
    null,
    'The service is having trouble reaching its database: try again in a moment.',
  )

/**
 * PostgREST's table from SQLSTATE to HTTP status: connection exceptions (08) and insufficient resources (53,
 * e.g. too many connections) are 503, an outage a client may retry; the other server-side classes are 500.
 */
export function statusForSqlState(code: string, role: ApiRole, message = ''): number {
  if (/^PT\d{3}$/.test(code)) return Number(code.slice(2))
  // pg-safeupdate's refusal is the client's mistake; any other cardinality violation (a subquery that returned more
  // than one row inside a function or view) is the server's, as PostgREST maps them.
  if (code === '21000') return message.endsWith('requires a WHERE clause') ? 400 : 500
  if (code === '42501') return role === 'anon' ? 401 : 403
  if (code === '23503' || code === '23505') return 409
  if (code === '25006') return 405
  if (code === '42883' || code === '42P01') return 404
  if (code === 'P0001') return 400
  if (code === '42P17') return 500
  if (code.startsWith('08') || code.startsWith('53')) return 503
  if (code.startsWith('54')) return 413
  if (code.startsWith('0L') || code.startsWith('0P') || code.startsWith('28')) return 403
  const serverClasses = ['09', '25', '2D', '38', '39', '3B', '40', '55', '57', '58', 'F0', 'HV', 'P0', 'XX']
  if (serverClasses.some((c) => code.startsWith(c))) return 500
  return 400
}

/** Errors a person can do something about only by waiting: PostgreSQL's message stays, the hint says what to do. */
const TRY_AGAIN_HINTS: Record<string, string> = {
  '57014': 'The service is busy: try again in a moment.',
  '55P03': 'Someone else is changing the same thing: try again in a moment.',
  '40001': 'Someone else changed the same thing at the same time: try again.',
  '40P01': 'Someone else changed the same thing at the same time: try again.',
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
      hint: typeof error.hint === 'string' ? error.hint : (TRY_AGAIN_HINTS[error.code] ?? null),
    }
    return json(statusForSqlState(error.code, role, body.message), body)
  }
  if (isConnectionFailure(error)) return errorResponse(databaseUnavailable(), role)
  throw error
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): ApiResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  }
}
