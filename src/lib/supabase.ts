/**
 * The one Supabase client of the SPA. Nothing else creates one: sessions, refresh and auth events must
 * have a single owner. Options follow SPEC §9 (persist on, auto refresh on, URL session detection off).
 *
 * Why not `createClient` from supabase-js: it bundles the Realtime and Storage clients, which this app never
 * uses, and their weight alone pushed every public route past the 150 KB budget. This composes the same
 * three clients supabase-js composes for what we use — auth-js, postgrest-js, functions-js, from the same
 * release — with supabase-js's request rules (apikey header; the session's access token, else the anon key)
 * and its session storage key, so sessions and requests are identical to hosted Supabase's client.
 */
import { AuthClient } from '@supabase/auth-js'
import { FunctionsClient } from '@supabase/functions-js'
import { PostgrestClient } from '@supabase/postgrest-js'
import { env } from '@/config/env'
import type { Database } from '@/types/database.types'

const url = env.VITE_SUPABASE_URL.replace(/\/+$/, '')
const anonKey = env.VITE_SUPABASE_ANON_KEY
const clientInfo = { 'X-Client-Info': 'growletter-web' }

const auth = new AuthClient({
  url: `${url}/auth/v1`,
  headers: { ...clientInfo, Authorization: `Bearer ${anonKey}`, apikey: anonKey },
  // The key supabase-js derives, so a session survives a switch between the two clients.
  storageKey: `sb-${new URL(url).hostname.split('.')[0]}-auth-token`,
  persistSession: true,
  autoRefreshToken: true,
  detectSessionInUrl: false,
  flowType: 'implicit',
})

/** Every data and function request carries the apikey and the user's token (or the anon key). */
const fetchWithAuth: typeof fetch = async (input, init) => {
  const { data } = await auth.getSession()
  const headers = new Headers(init?.headers)
  if (!headers.has('apikey')) headers.set('apikey', anonKey)
  if (!headers.has('Authorization')) headers.set('Authorization', `Bearer ${data.session?.access_token ?? anonKey}`)
  return fetch(input, { ...init, headers })
}

const rest = new PostgrestClient<Database>(`${url}/rest/v1`, { headers: clientInfo, fetch: fetchWithAuth })

export const supabase = {
  auth,
  from: rest.from.bind(rest),
  rpc: rest.rpc.bind(rest),
  functions: new FunctionsClient(`${url}/functions/v1`, { headers: clientInfo, customFetch: fetchWithAuth }),
}
