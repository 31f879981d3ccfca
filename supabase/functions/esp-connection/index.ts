/**
 * esp-connection: what the "Connect your email tool" panel asks a provider before it saves (issue 25), with the
 * advertiser's key, which this function uses and forgets:
 * - `{ action: 'targets', provider, apiKey }` → `{ ok: true, targets: [{ id, name }] }`, the lists to choose from
 *   (beehiiv publications, Kit forms, Mailchimp audiences, MailerLite groups);
 * - `{ action: 'test', provider, apiKey, targetId }` → `{ ok: true, target }`, the key works and the list exists.
 * A provider's refusal is an answer, not an error: 200 `{ ok: false, message }` with the provider's own words.
 * 400 `{ error }` for a bad request (the same rules as the form, @rules/esp-connection), 401 signed out, 403 not an
 * advertiser, 429 over 30 look-ups a minute. Saving is not here: the SPA calls the save_esp_connection RPC, which
 * puts the key in Vault in the database's own transaction (docs/decisions.md).
 */
import { preflight } from '../_shared/cors.ts'
import { espClient, type EspFailure } from '../_shared/esp/index.ts'
import { errorResponse, HttpError, json, readJsonObject, requirePost } from '../_shared/http.ts'
import { takeAllowance } from '../_shared/rate-limit.ts'
import { ESP_KEY_MESSAGES, ESP_PROVIDER_NAMES, espKeyProblem } from '../_shared/rules/esp-connection.ts'
import { serviceClient } from '../_shared/supabase-admin.ts'

const TIMEOUT_MS = 15_000
const timedFetch: typeof fetch = (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) })

async function signedInAdvertiser(req: Request): Promise<string> {
  const token = /^bearer\s+(.+)$/i.exec(req.headers.get('authorization') ?? '')?.[1]?.trim()
  const admin = serviceClient()
  const { data, error } = token ? await admin.auth.getUser(token) : { data: { user: null }, error: null }
  const status = (error as { status?: number } | null)?.status ?? 0
  if (error && !(status >= 400 && status < 500))
    throw new HttpError(503, 'We could not check your sign-in just now. Try again in a moment.')
  if (error || !data.user) throw new HttpError(401, 'Sign in to connect your email tool.')
  const { data: profile, error: profileError } = await admin
    .from('profiles')
    .select('user_type')
    .eq('id', data.user.id)
    .maybeSingle()
  if (profileError) throw new Error(`profile lookup failed: ${profileError.message}`)
  if (profile?.user_type !== 'advertiser')
    throw new HttpError(403, 'Only advertisers connect an email tool. Sign in with your advertiser account.')
  return data.user.id
}

/** The provider's refusal in a sentence the advertiser can act on, keeping the provider's own words. */
function refusal(name: string, failure: EspFailure): string {
  if (failure.status === 401 || failure.status === 403) return `${name} did not accept this API key: ${failure.message}`
  if (failure.retryable) return `${name} is not answering just now (${failure.message}). Try again in a moment.`
  return `${name} answered: ${failure.message}`
}

async function handle(req: Request): Promise<Response> {
  requirePost(req)
  const userId = await signedInAdvertiser(req)
  // 30 a minute per advertiser, counted in the database (esp-lookup-user): every isolate sees one count.
  await takeAllowance('esp-lookup-user', userId, 'Too many look-ups; wait a minute and try again.')
  const body = await readJsonObject(req)
  const { action, provider } = body
  const apiKey = typeof body.apiKey === 'string' ? body.apiKey.trim() : ''
  if (action !== 'targets' && action !== 'test') throw new HttpError(400, 'Ask for "targets" or "test"')
  const problem = espKeyProblem(provider, apiKey)
  if (problem) throw new HttpError(400, problem)
  const name = ESP_PROVIDER_NAMES[provider as keyof typeof ESP_PROVIDER_NAMES]
  const client = espClient(provider as keyof typeof ESP_PROVIDER_NAMES, (n) => Deno.env.get(n), { fetch: timedFetch })
  if (action === 'targets') {
    const listed = await client.listTargets(apiKey)
    return json(listed.ok ? { ok: true, targets: listed.targets } : { ok: false, message: refusal(name, listed) })
  }
  const targetId = typeof body.targetId === 'string' ? body.targetId.trim() : ''
  if (!targetId) throw new HttpError(400, ESP_KEY_MESSAGES.target)
  const tested = await client.testConnection(apiKey, targetId)
  return json(tested.ok ? { ok: true, target: tested.target } : { ok: false, message: refusal(name, tested) })
}

Deno.serve(async (req) => {
  const early = preflight(req)
  if (early) return early
  try {
    return await handle(req)
  } catch (error) {
    return errorResponse(error, (message) => ({ error: message }))
  }
})
