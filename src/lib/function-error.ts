/**
 * Edge functions answer a refusal with `{ error: '<readable message>' }` (supabase/functions/_shared/http.ts) and
 * a status; supabase-js's functions client turns any non-2xx answer into a `FunctionsHttpError` whose own message
 * is only "Edge Function returned a non-2xx status code", with the response in `context`. Every caller of
 * `supabase.functions.invoke` reads the function's words through here.
 *
 * The error is recognised by the name `@supabase/functions-js` gives it, not by `instanceof`: that would import
 * functions-js into every page with a form, and the client loads it only on the first call (lib/supabase.ts).
 */
import type { FunctionsHttpError } from '@supabase/functions-js'

const isFunctionsHttpError = (error: unknown): error is FunctionsHttpError =>
  error instanceof Error && error.name === 'FunctionsHttpError' && 'context' in error

/** The function's JSON answer to a refused call, or null when there is none (a network error, a non-JSON body). */
export async function functionErrorBody(error: unknown): Promise<Record<string, unknown> | null> {
  if (!isFunctionsHttpError(error)) return null
  const context: unknown = error.context
  if (!(context instanceof Response)) return null
  try {
    // A clone: a caller may still want to read the body itself.
    const body: unknown = await context.clone().json()
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** The function's own message (`error` of its answer), else the client's message, else `fallback`. */
export async function functionErrorMessage(error: unknown, fallback: string): Promise<string> {
  const body = await functionErrorBody(error)
  if (typeof body?.error === 'string' && body.error) return body.error
  return error instanceof Error && error.message ? error.message : fallback
}

/** The same, as an Error to throw from a mutation. */
export async function functionError(error: unknown, fallback: string): Promise<Error> {
  return new Error(await functionErrorMessage(error, fallback))
}
