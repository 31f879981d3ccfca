// Subscribers delivered into the advertiser's email tool, end to end in the embedded backend (issue 25): the
// esp-connection function lists a provider's lists and tests a key for a signed-in advertiser; save_esp_connection
// connects a campaign; a confirmation queues its delivery and pg_net calls deliver-esp, which delivers it into the
// local sandbox's MailerLite once despite a 500 and two 429s, and ends a rejection (422) failed with MailerLite's
// own message. The pg_cron job picks up what is due.
import { createHash, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBackend, type Backend } from '../server'

const CAMPAIGN = '20000000-0000-4000-a000-000000000001' // the demo advertiser's active campaign (seed)
const GROUP = '100000000000000001'
const hash = (token: string) => createHash('sha256').update(token).digest('hex')

let backend: Backend
let token: string

async function signIn(email: string) {
  const res = await fetch(`${backend.apiUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'growletter-demo' }),
  })
  return ((await res.json()) as { access_token: string }).access_token
}

const post = (path: string, body: unknown, bearer = token) =>
  fetch(`${backend.apiUrl}${path}`, {
    method: 'POST',
    headers: { apikey: backend.anonKey, authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

const sandbox = (path: string, init?: RequestInit) =>
  fetch(`${backend.apiUrl}/esp${path}`, {
    ...init,
    headers: { 'content-type': 'application/json' },
  }).then((r) => r.json() as Promise<unknown>)

async function confirmed(email: string) {
  const t = randomUUID()
  await backend.db.query('select * from public.create_pending_subscriptions($1, $2::uuid[], $3::text[])', [
    email,
    [CAMPAIGN],
    [hash(t)],
  ])
  await backend.db.query(
    "update public.newsletter_subscriptions set armed_at = now() - interval '1 minute' where email = $1",
    [email],
  )
  await backend.db.query("select public.confirm_subscription($1, $2, '203.0.113.9')", [hash(t), email])
}

const deliveryOf = async (email: string) =>
  (
    await backend.db.query<{
      status: string
      attempts: number
      response_status: number | null
      last_error: string | null
      remote_id: string | null
    }>(
      `select d.status, d.attempts, d.response_status, d.last_error, d.remote_id from public.esp_deliveries d
       join public.newsletter_subscriptions s on s.id = d.subscription_id where s.email = $1`,
      [email],
    )
  ).rows

/** Runs what the deliver-esp job runs, then performs the pg_net call it queued (deliver-esp runs to the end). */
async function runJob() {
  await backend.db.query('select private.dispatch_esp_deliveries()')
  await backend.cron.drainNet()
}

beforeAll(async () => {
  backend = await startBackend({ port: 0, dataDir: null, seed: true, cron: false })
  token = await signIn('advertiser@growletter.test')
})
afterAll(async () => {
  await backend?.close()
})

describe('esp-connection', () => {
  it('lists the lists and tests a key for a signed-in advertiser; a refusal carries the provider’s words', async () => {
    const lists = await post('/functions/v1/esp-connection', {
      action: 'targets',
      provider: 'mailerlite',
      apiKey: 'local-mailerlite-key',
    })
    expect(lists.status).toBe(200)
    expect(await lists.json()).toEqual({
      ok: true,
      targets: [
        { id: GROUP, name: 'Demo subscribers (MailerLite)' },
        { id: '100000000000000002', name: 'Demo partners (MailerLite)' },
      ],
    })
    const tested = await post('/functions/v1/esp-connection', {
      action: 'test',
      provider: 'mailerlite',
      apiKey: 'local-mailerlite-key',
      targetId: GROUP,
    })
    expect(await tested.json()).toEqual({ ok: true, target: { id: GROUP, name: 'Demo subscribers (MailerLite)' } })

    const wrongKey = await post('/functions/v1/esp-connection', {
      action: 'targets',
      provider: 'mailerlite',
      apiKey: 'not-the-key',
    })
    const refused = (await wrongKey.json()) as { ok: boolean; message: string }
    expect(refused.ok).toBe(false)
    expect(refused.message).toMatch(/^MailerLite did not accept this API key: /)

    const missing = await post('/functions/v1/esp-connection', {
      action: 'test',
      provider: 'mailerlite',
      apiKey: 'local-mailerlite-key',
    })
    expect(missing.status).toBe(400)
    expect(await missing.json()).toEqual({ error: 'Choose the list your subscribers should go to' })
    const spaces = await post('/functions/v1/esp-connection', { action: 'targets', provider: 'kit', apiKey: 'a b' })
    expect(await spaces.json()).toEqual({ error: 'An API key has no spaces; paste only the key' })

    const signedOut = await post(
      '/functions/v1/esp-connection',
      { action: 'targets', provider: 'kit', apiKey: 'k' },
      backend.anonKey,
    )
    expect(signedOut.status).toBe(401)
    const publisher = await post(
      '/functions/v1/esp-connection',
      { action: 'targets', provider: 'kit', apiKey: 'k' },
      await signIn('publisher@growletter.test'),
    )
    expect(publisher.status).toBe(403)
  })
})

describe('deliver-esp', () => {
  it('delivers the seeded demo campaign’s backlog when the job runs', async () => {
    const queued = await backend.db.query<{ n: number }>(
      "select count(*)::int as n from public.esp_deliveries where status = 'queued'",
    )
    expect(queued.rows[0]!.n).toBeGreaterThan(0)
    await runJob()
    const left = await backend.db.query<{ status: string; n: number }>(
      'select status, count(*)::int as n from public.esp_deliveries group by status',
    )
    expect(left.rows).toEqual([{ status: 'delivered', n: queued.rows[0]!.n }])
  })

  it('delivers a confirmed subscriber once despite a 500 and two 429s, with the consent fields', async () => {
    const saved = await post('/rest/v1/rpc/save_esp_connection', {
      p_campaign_id: CAMPAIGN,
      p_provider: 'mailerlite',
      p_api_key: 'local-mailerlite-key',
      p_target_id: GROUP,
      p_target_name: 'Demo subscribers (MailerLite)',
      p_backfill: false,
    })
    expect(saved.status).toBe(200)
    await sandbox('/_api/requests', { method: 'DELETE' })
    await sandbox('/_control/fail', {
      method: 'POST',
      body: JSON.stringify({ provider: 'mailerlite', status: 500, count: 1 }),
    })

    const email = `esp-${randomUUID().slice(0, 8)}@example.com`
    await confirmed(email)
    // The confirmation's own kick: the provider's outage is recorded for a retry with backoff.
    await backend.cron.drainNet()
    const [afterOutage] = await deliveryOf(email)
    expect(afterOutage).toMatchObject({ status: 'queued', attempts: 1, response_status: 500 })
    expect(afterOutage!.last_error).toMatch(/Internal server error/)

    await sandbox('/_control/fail', {
      method: 'POST',
      body: JSON.stringify({ provider: 'mailerlite', status: 429, count: 2, retryAfterSeconds: 0 }),
    })
    // The backoff has passed (15 s after the first failure).
    await backend.db.query(
      "update public.esp_deliveries set next_attempt_at = now() - interval '1 second' where status = 'queued'",
    )
    await runJob()
    const [done] = await deliveryOf(email)
    expect(done).toMatchObject({ status: 'delivered', attempts: 4, last_error: null })

    const held = (
      (await sandbox('/_api/subscribers?provider=mailerlite')) as { email: string; fields: object }[]
    ).filter((s) => s.email === email)
    expect(held).toHaveLength(1)
    expect(held[0]!.fields).toMatchObject({ status: 'active', optin_ip: '203.0.113.9', groups: [GROUP] })
    const sent = ((await sandbox('/_api/requests?provider=mailerlite')) as { status: number; body: unknown }[])
      .filter((r) => (r.body as { email?: string } | undefined)?.email === email)
      .map((r) => r.status)
      .sort()
    expect(sent).toEqual([201, 429, 429, 500])
    expect(done!.remote_id).toBeTruthy()

    // Nothing is due any more: another run sends nothing.
    await runJob()
    const again = (await sandbox('/_api/requests?provider=mailerlite')) as unknown[]
    expect(again).toHaveLength(4)
  })

  it('ends a rejection failed with MailerLite’s message, and the owner can retry it', async () => {
    const email = `rejected-${randomUUID().slice(0, 8)}@bounce.invalid`
    await confirmed(email)
    await backend.cron.drainNet()
    const [failed] = await deliveryOf(email)
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: 1,
      response_status: 422,
      last_error: 'The email must be a valid email address.',
    })
    const id = (
      await backend.db.query<{ id: string }>(
        `select d.id from public.esp_deliveries d join public.newsletter_subscriptions s on s.id = d.subscription_id
         where s.email = $1`,
        [email],
      )
    ).rows[0]!.id
    const retried = await post('/rest/v1/rpc/retry_esp_delivery', { p_delivery_id: id })
    expect(retried.status).toBe(200)
    await backend.cron.drainNet()
    expect(await deliveryOf(email)).toMatchObject([{ status: 'failed', attempts: 1 }])
  })

  it('the scheduled job runs deliver-esp when the immediate call was lost', async () => {
    const email = `late-${randomUUID().slice(0, 8)}@example.com`
    await confirmed(email)
    // The pg_net call is lost (as when the function host was down).
    await backend.db.query("delete from net.http_request_queue where url like '%/deliver-esp'")
    expect(await deliveryOf(email)).toMatchObject([{ status: 'queued', attempts: 0 }])
    const t0 = new Date()
    await backend.cron.tick(t0)
    const runs = await backend.cron.tick(new Date(t0.getTime() + 60_000))
    expect(runs.find((r) => r.jobname === 'deliver-esp')).toMatchObject({ status: 'succeeded' })
    expect(await deliveryOf(email)).toMatchObject([{ status: 'delivered', attempts: 1 }])
  })
})
