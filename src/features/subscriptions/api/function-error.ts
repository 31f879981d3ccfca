/** Edge functions answer errors with `{ error: '<readable message>' }`; supabase-js hides it in `context`. */
import { FunctionsHttpError } from '@supabase/supabase-js'

export async function functionErrorBody(error: unknown): Promise<Record<string, unknown> | null> {
  if (!(error instanceof FunctionsHttpError)) return null
  const context: unknown = error.context
  if (!(context instanceof Response)) return null
  try {
    const body: unknown = await context.clone().json()
    return body && typeof body === 'object' ? (body as Record<string, unknown>) : null
  } catch {
    return null
  }
}

export async function functionErrorMessage(error: unknown, fallback: string): Promise<string> {
  const body = await functionErrorBody(error)
  if (typeof body?.error === 'string' && body.error) return body.error
  return error instanceof Error && error.message ? error.message : fallback
}
