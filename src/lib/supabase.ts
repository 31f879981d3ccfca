/**
 * The one Supabase client of the SPA. Nothing else creates one: sessions, refresh and auth events must
 * have a single owner. Options follow SPEC §9 (persist on, auto refresh on, URL session detection off).
 *
 * Why not `createClient` from supabase-js: it bundles the Realtime and Storage clients, which this app never
 * uses, and their weight alone pushed every public route past the 150 KB budget. This composes the same
 * three clients supabase-js composes for what we use — auth-js, postgrest-js, functions-js, from the same
 * release — with supabase-js's request rules (apikey header; the session's access token, else the key itself)
 * and its session storage key, so sessions and requests are identical to hosted Supabase's client.
 *
 * auth-js itself loads on demand (see lazy-auth.ts): at start-up when a session is stored (so its token keeps
 * refreshing) or the URL carries an auth link's hash, otherwise on the first `supabase.auth` call. functions-js
 * loads on the first `supabase.functions.invoke` (a subscription, a checkout): most visits never call a function,
 * and every public route's JavaScript counts against 150 KB.
 */
import type { FunctionsClient } from '@supabase/functions-js'
import { PostgrestClient } from '@supabase/postgrest-js'
import { env } from '@/config/env'
import type { Database } from '@/types/database.types'
import { authStorageKey } from './auth-storage-key'
import { createLazyAuth } from './lazy-auth'
import { readLocal } from './storage-keys'

const url = env.VITE_SUPABASE_URL.replace(/\/+$/, '')
// The publishable key (sb_publishable_…), or the legacy anon JWT where only that is configured (config/env-check.ts).
const apiKey = env.supabaseKey
const clientInfo = { 'X-Client-Info': 'growletter-web' }
const storageKey = authStorageKey(url)

const lazyAuth = createLazyAuth(async () => {
  const { AuthClient } = await import('@supabase/auth-js')
  return new AuthClient({
    url: `${url}/auth/v1`,
    headers: { ...clientInfo, Authorization: `Bearer ${apiKey}`, apikey: apiKey },
    storageKey,
    persistSession: true,
    autoRefreshToken: true,
    detectSessionInUrl: false,
    flowType: 'implicit',
  })
})

/** A session is stored in this browser (the visitor may be signed in). */
export const hasStoredSession = () => readLocal(storageKey) !== null
// An auth email link's hash (a session or an error) is handled by the page it lands on, through auth-js.
const urlCarriesAuth = () => typeof window !== 'undefined' && /(^#|&)(access_token|error)=/.test(window.location.hash)

/**
 * Starts loading auth-js when this visit needs it (a stored session, an auth link's hash) and says whether
 * auth-js is loading or loaded. When it says no, the visitor is signed out until a `supabase.auth` call.
 */
export function startAuthIfNeeded(): boolean {
  if (lazyAuth.started()) return true
  if (!hasStoredSession() && !urlCarriesAuth()) return false
  lazyAuth.load().catch((error: unknown) => console.error('Could not load the auth client', error))
  return true
}

startAuthIfNeeded()

/** Every data and function request carries the apikey and the user's token (or the key itself, as supabase-js does). */
const fetchWithAuth: typeof fetch = async (input, init) => {
  // Without a stored session (and no auth-js in use) the key is the answer: no need to load auth-js.
  const auth = lazyAuth.started() ?? (hasStoredSession() ? lazyAuth.load() : null)
  const token = auth ? (await (await auth).getSession()).data.session?.access_token : undefined
  const headers = new Headers(init?.headers)
  if (!headers.has('apikey')) headers.set('apikey', apiKey)
  if (!headers.has('Authorization')) headers.set('Authorization', `Bearer ${token ?? apiKey}`)
  return fetch(input, { ...init, headers })
}

const rest = new PostgrestClient<Database>(`${url}/rest/v1`, { headers: clientInfo, fetch: fetchWithAuth })

let functionsClient: Promise<FunctionsClient> | null = null
const loadFunctions = () =>
  (functionsClient ??= import('@supabase/functions-js').then(
    ({ FunctionsClient }) =>
      new FunctionsClient(`${url}/functions/v1`, { headers: clientInfo, customFetch: fetchWithAuth }),
  ))

export const supabase = {
  auth: lazyAuth.auth,
  from: rest.from.bind(rest),
  rpc: rest.rpc.bind(rest),
  functions: {
    invoke: ((...args: Parameters<FunctionsClient['invoke']>) =>
      loadFunctions().then((client) => client.invoke(...args))) as FunctionsClient['invoke'],
  },
}
