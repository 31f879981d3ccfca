/**
 * GoTrue's error contract: 4xx with `{code, error_code, msg}` and the API version header on every
 * response, so supabase-js maps `code` to its typed errors (AuthWeakPasswordError, AuthSessionMissingError…).
 */
import type { ApiResponse } from '../context'

export const API_VERSION_HEADERS = { 'X-Supabase-Api-Version': '2024-01-01' }

/** Thrown anywhere inside an auth route; the router turns it into GoTrue's error body. */
export class AuthHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message)
  }
}

export const httpError = (status: number, code: string, msg: string, extra?: Record<string, unknown>) =>
  new AuthHttpError(status, code, msg, extra)

export function errorResponse(error: AuthHttpError): ApiResponse {
  return {
    status: error.status,
    headers: { ...API_VERSION_HEADERS },
    body: { code: error.status, error_code: error.code, msg: error.message, ...error.extra },
  }
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): ApiResponse {
  return { status, headers: { ...API_VERSION_HEADERS, ...headers }, body }
}

export const noContent = (): ApiResponse => ({ status: 204, headers: { ...API_VERSION_HEADERS } })

// Messages GoTrue sends for the common cases; the SPA and supabase-js match some of them verbatim.
export const errors = {
  invalidCredentials: () => httpError(400, 'invalid_credentials', 'Invalid login credentials'),
  emailNotConfirmed: () => httpError(400, 'email_not_confirmed', 'Email not confirmed'),
  otpExpired: () => httpError(403, 'otp_expired', 'Token has expired or is invalid'),
  noAuthorization: () => httpError(401, 'no_authorization', 'This endpoint requires a valid Bearer token'),
  badJwt: (detail: string) => httpError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${detail}`),
  sessionNotFound: () => httpError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  userNotFound: () => httpError(404, 'user_not_found', 'User not found'),
  notAdmin: () => httpError(403, 'not_admin', 'User not allowed'),
  emailExists: () => httpError(422, 'email_exists', 'A user with this email address has already been registered'),
  validation: (msg: string) => httpError(400, 'validation_failed', msg),
  badJson: () => httpError(400, 'bad_json', 'Could not parse request body as JSON'),
  rateLimited: () => httpError(429, 'over_request_rate_limit', 'Request rate limit reached'),
  emailRateLimited: () => httpError(429, 'over_email_send_rate_limit', 'Email rate limit exceeded'),
  insufficientAal: (msg: string) => httpError(403, 'insufficient_aal', msg),
  accountRateLimited: () =>
    httpError(
      429,
      'over_request_rate_limit',
      'Too many failed sign-in attempts for this account from new locations. Try again in 15 minutes, sign in from a device you used before, or reset your password.',
    ),
}
