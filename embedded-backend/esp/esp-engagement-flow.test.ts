// Engagement read back from the advertiser's email tool (issue 25), end to end in the embedded backend: subscribers
// delivered by deliver-esp into the sandbox's beehiiv, Mailchimp and MailerLite are told opens and clicks there
// (POST /esp/_control/engagement); 6 hours later the read-esp-engagement job runs deliver-esp, which reads each one
// back through the provider's documented endpoint once and keeps it on esp_deliveries; esp_engagement_figures gives
// the advertiser and the publisher the same rate per source. A 429 on a read waits; Kit is read by its stats endpoint.
import { createHash, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBackend, type Backend } from '../server'

const SOURCE = '10000000-0000-4000-a000-000000000001' // demo-approved, the demo publisher's (seed)
const CAMPAIGNS = {
  beehiiv: '20000000-0000-4000-a000-000000000001',
  mailchimp: '20000000-0000-4000-a000-000000000002',
  mailerlite: '20000000-0000-4000-a000-000000000003', // the seed connected it already
}
const TARGETS = { beehiiv: 'pub_00000000-0000-4000-8000-000000000001', mailchimp: 'a1b2c3d4e5' }
const hash = (token: string) => createHash('sha256').update(token).digest('hex')

let backend: Backend
let advertiser: string
let publisher: string

async function signIn(email: string) {
  const res = await fetch(`${backend.apiUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'growletter-demo' }),
  })
  return ((await res.json()) as { access_token: string }).access_token
}

const rpc = async <T>(name: string, body: unknown, bearer: string) => {
  const res = await fetch(`${backend.apiUrl}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: { apikey: backend.anonKey, authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as T
}

const sandbox = (path: string, body?: unknown) =>
  fetch(`${backend.apiUrl}/esp${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as unknown }))

async function confirmed(campaignId: string) {
  const email = `engaged-${randomUUID().slice(0, 8)}@example.com`
  const t = randomUUID()
  await backend.db.query('select * from public.create_pending_subscriptions($1, $2::uuid[], $3::text[], $4)', [
    email,
    [campaignId],
    [hash(t)],
    SOURCE,
  ])
  await backend.db.query(
    "update public.newsletter_subscriptions set armed_at = now() - interval '1 minute' where email = $1",
    [email],
  )
  await backend.db.query("select public.confirm_subscription($1, $2, '203.0.113.7')", [hash(t), email])
  return email
}

type Row = { status: string; engaged: boolean | null; opens: number | null; clicks: number | null; checked: boolean }
const deliveryOf = async (email: string) =>
  (
    await backend.db.query<Row>(
      `select d.status, d.engaged, d.opens, d.clicks, d.engagement_checked_at is not null as checked
       from public.esp_deliveries d join public.newsletter_subscriptions s on s.id = d.subscription_id
       where s.email = $1`,
      [email],
    )
  ).rows[0]

/** Six hours and a minute pass for everything delivered (the first read is due 6 hours after the delivery). */
const sixHoursLater = () =>
  backend.db.query(
    `update public.esp_deliveries set delivered_at = delivered_at - interval '361 minutes',
       engagement_checked_at = engagement_checked_at - interval '361 minutes' where status = 'delivered'`,
  )

/** Runs what the read-esp-engagement job runs, then performs the pg_net call it queued. */
async function runJob() {
  const due = await backend.db.query<{ n: number }>('select private.dispatch_esp_engagement() as n')
  await backend.cron.drainNet()
  return due.rows[0]!.n
}

/** The GET requests the provider's sandbox received naming `needle` (the address, or Mailchimp's hash of it). */
const reads = async (provider: string, needle: string) =>
  ((await sandbox(`/_api/requests?provider=${provider}`)).body as { method: string; path: string; status: number }[])
    .filter((r) => r.method === 'GET' && decodeURIComponent(r.path).includes(needle))
    .map((r) => `${r.status} ${decodeURIComponent(r.path)}`)

const readers: Record<'beehiiv' | 'mailchimp' | 'mailerlite', string> = { beehiiv: '', mailchimp: '', mailerlite: '' }

beforeAll(async () => {
  backend = await startBackend({ port: 0, dataDir: null, seed: true, cron: false })
  advertiser = await signIn('advertiser@growletter.test')
  publisher = await signIn('publisher@growletter.test')
  for (const provider of ['beehiiv', 'mailchimp'] as const)
    await rpc(
      'save_esp_connection',
      {
        p_campaign_id: CAMPAIGNS[provider],
        p_provider: provider,
        p_api_key: provider === 'beehiiv' ? 'local-beehiiv-key' : 'local-mailchimp-key-us1',
        p_target_id: TARGETS[provider],
        p_backfill: false,
      },
      advertiser,
    )
  for (const provider of ['beehiiv', 'mailchimp', 'mailerlite'] as const)
    readers[provider] = await confirmed(CAMPAIGNS[provider])
  // The confirmations' kicks deliver them (and the seed's MailerLite backlog).
  await backend.cron.drainNet()
  await backend.db.query('select private.dispatch_esp_deliveries()')
  await backend.cron.drainNet()
  for (const email of Object.values(readers)) expect(await deliveryOf(email)).toMatchObject({ status: 'delivered' })
})
afterAll(async () => {
  await backend?.close()
})

describe('engagement read-back', () => {
  it('reads nothing right after the delivery', async () => {
    expect(await runJob()).toBe(0)
    for (const email of Object.values(readers))
      expect(await deliveryOf(email)).toMatchObject({ engaged: null, checked: false })
  })

  it('reads each provider’s opens and clicks once, six hours after the delivery', async () => {
    for (const [provider, opens, clicks] of [
      ['beehiiv', 2, 1],
      ['mailerlite', 3, 1],
      ['mailchimp', 0, 0],
    ] as const) {
      const told = await sandbox('/_control/engagement', { provider, email: readers[provider], opens, clicks })
      expect(told.status).toBe(200)
    }
    await sixHoursLater()
    expect(await runJob()).toBeGreaterThanOrEqual(3)

    // beehiiv and Mailchimp report rates (no counts); MailerLite counts.
    expect(await deliveryOf(readers.beehiiv)).toMatchObject({ engaged: true, opens: null, clicks: null, checked: true })
    expect(await deliveryOf(readers.mailerlite)).toMatchObject({ engaged: true, opens: 3, clicks: 1, checked: true })
    expect(await deliveryOf(readers.mailchimp)).toMatchObject({
      engaged: false,
      opens: null,
      clicks: null,
      checked: true,
    })
    // Each through the provider's documented endpoint, once.
    expect(await reads('beehiiv', readers.beehiiv)).toEqual([
      `200 /v2/publications/${TARGETS.beehiiv}/subscriptions/by_email/${readers.beehiiv}?expand[]=stats`,
    ])
    const memberHash = createHash('md5').update(readers.mailchimp).digest('hex')
    expect(await reads('mailchimp', memberHash)).toEqual([
      `200 /3.0/lists/${TARGETS.mailchimp}/members/${memberHash}?fields=stats`,
    ])
    // MailerLite's group also holds the seed's delivered readers, due together: more than the one page listing them,
    // so the group is read by its list (issue 39), once, and no reader one by one.
    expect(await reads('mailerlite', readers.mailerlite)).toEqual([])
    expect(await reads('mailerlite', '/api/groups/')).toEqual([
      '200 /api/groups/100000000000000001/subscribers?limit=1000&filter[status]=active',
    ])
    // Read: nothing is due again for six hours.
    expect(await runJob()).toBe(0)
  })

  it('gives the advertiser and the publisher the engagement rate per source', async () => {
    type Figure = { source_id: string; delivered: number; checked: number; engaged: number; engagement_rate: number }
    const mine = (rows: Figure[]) => rows.filter((r) => r.source_id === SOURCE)
    const ofBeehiivCampaign = mine(
      await rpc<Figure[]>('esp_engagement_figures', { p_campaign_id: CAMPAIGNS.beehiiv }, advertiser),
    )
    expect(ofBeehiivCampaign).toMatchObject([{ delivered: 1, checked: 1, engaged: 1, engagement_rate: 100 }])
    const ofMailchimpCampaign = mine(
      await rpc<Figure[]>('esp_engagement_figures', { p_campaign_id: CAMPAIGNS.mailchimp }, advertiser),
    )
    expect(ofMailchimpCampaign).toMatchObject([{ delivered: 1, checked: 1, engaged: 0, engagement_rate: 0 }])
    // The publisher's source across the three campaigns: 2 of 3 read back engaged.
    const publishers = mine(await rpc<Figure[]>('esp_engagement_figures', {}, publisher))
    expect(publishers).toMatchObject([{ delivered: 3, checked: 3, engaged: 2, engagement_rate: 66.67 }])
  })

  it('waits after the provider’s 429 and reads again once the pause is over', async () => {
    await sandbox('/_control/engagement', { provider: 'mailchimp', email: readers.mailchimp, opens: 1, clicks: 0 })
    await sandbox('/_control/fail', { provider: 'mailchimp', status: 429, count: 1, retryAfterSeconds: 30 })
    await sixHoursLater()
    await runJob()
    expect(await deliveryOf(readers.mailchimp)).toMatchObject({ engaged: false })
    const waiting = await backend.db.query<{ s: number }>(
      `select extract(epoch from d.engagement_retry_at - now())::int as s from public.esp_deliveries d
       join public.newsletter_subscriptions s on s.id = d.subscription_id where s.email = $1`,
      [readers.mailchimp],
    )
    expect(waiting.rows[0]!.s).toBeGreaterThan(20)
    await backend.db.query(
      "update public.esp_deliveries set engagement_retry_at = now() - interval '1 second' where engagement_retry_at is not null",
    )
    await backend.db.query("update private.esp_key_pauses set paused_until = now() - interval '1 second'")
    await runJob()
    expect(await deliveryOf(readers.mailchimp)).toMatchObject({ engaged: true })
  })

  it('reads Kit through its per-subscriber stats, by the id Kit gave at delivery', async () => {
    await rpc(
      'save_esp_connection',
      { p_campaign_id: CAMPAIGNS.mailchimp, p_provider: 'kit', p_api_key: 'local-kit-key', p_target_id: '1001' },
      advertiser,
    )
    const reader = await confirmed(CAMPAIGNS.mailchimp)
    await backend.cron.drainNet()
    expect(await deliveryOf(reader)).toMatchObject({ status: 'delivered' })
    expect(
      (await sandbox('/_control/engagement', { provider: 'kit', email: reader, opens: 2, clicks: 1 })).status,
    ).toBe(200)
    await sixHoursLater()
    await runJob()
    expect(await deliveryOf(reader)).toMatchObject({ engaged: true, opens: 2, clicks: 1, checked: true })
    expect(await reads('kit', '/stats')).toEqual([expect.stringMatching(/^200 \/v4\/subscribers\/\d+\/stats$/)])
  })
})
