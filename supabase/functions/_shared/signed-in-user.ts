/**
 * The signed-in user behind a function call, asked of the auth server (so a token whose session ended is refused):
 * 401 with `signInMessage` when the token names no live session, 503 when the auth server cannot be asked.
 */
import { HttpError } from './http.ts'
import { serviceClient } from './supabase-admin.ts'

export async function signedInUser(req: Request, signInMessage: string): Promise<{ id: string; email: string }> {
  const token = /^bearer\s+(.+)$/i.exec(req.headers.get('authorization') ?? '')?.[1]?.trim()
  // The gateway lets the anon key through (it is a valid JWT); only a user's session token names a user.
  const { data, error } = token ? await serviceClient().auth.getUser(token) : { data: { user: null }, error: null }
  const user = data.user
  // Only the auth server's 4xx says the token is not a live session; a network failure (status 0) or its 5xx is an
  // outage, and telling a signed-in user to sign in would send them round in circles.
  const status = (error as { status?: number } | null)?.status ?? 0
  if (error && !(status >= 400 && status < 500)) {
    throw new HttpError(503, 'We could not check your sign-in just now. Try again in a moment.')
  }
  if (error || !user?.email) throw new HttpError(401, signInMessage)
  return { id: user.id, email: user.email }
}
