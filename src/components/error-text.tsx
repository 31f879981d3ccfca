/**
 * The readable message of anything thrown: supabase-js errors are not always `Error` instances (PostgREST
 * errors are plain objects with a `message`), so `String(error)` would print "[object Object]".
 */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message
  if (typeof error === 'object' && error && 'message' in error && typeof error.message === 'string')
    return error.message
  return String(error)
}
