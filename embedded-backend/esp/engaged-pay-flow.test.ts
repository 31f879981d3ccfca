// Engagement-verified pay end to end in the embedded backend (issue 39), on this run's engine (PGlite, or a fresh
// database on TEST_DATABASE_URL's server): the demo advertiser switches its MailerLite-connected newsletter to pay per
// engaged reader through the REST API (the form's column grant); two readers confirm, deliver-esp delivers them into
// the sandbox, and the sandbox is told (POST /esp/_engagement, service-role key) that one clicked and the other was
// only opened by a privacy proxy. When the window closes the read-esp-engagement job reads both once more through
// MailerLite's API and the scheduled settlement charges the reader who clicked and releases the machine-only one
// with not_engaged; a reader of a newsletter on the confirmed rule is charged beside them as before; the ledger
// balances and both sides read the same evidence row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBackend, type Backend } from '../server'
import { confirmedReader } from '../testing/confirmed-reader'
import { postgresDatabase } from '../testing/rest-fixture'

const SOURCE = '10000000-0000-4000-a000-000000000001' // demo-approved, the demo publisher's (seed)
const ENGAGED = '20000000-0000-4000-a000-000000000003' // connected to MailerLite by the seed
const CONFIRMED = '20000000-0000-4000-a000-000000000001'

let backend: Backend
let database: Awaited<ReturnType<typeof postgresDatabase>> | null = null
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

const rest = (path: string, bearer: string, init: RequestInit = {}) =>
  fetch(`${backend.apiUrl}/rest/v1${path}`, {
    ...init,
    headers: {
      apikey: backend.anonKey,
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      ...(init.headers as Record<string, string>),
    },
  })

const engage = (body: unknown, key: string | null = backend.serviceRoleKey) =>
  fetch(`${backend.apiUrl}/esp/_engagement`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { apikey: key } : {}) },
    body: JSON.stringify(body),
  })

/** A reader through the demo source, confirmed and counted. */
const reader = (campaignId: string, name: string) => confirmedReader(backend.db, { campaignId, sourceId: SOURCE, name })

const subscriptionOf = async (email: string) =>
  (
    await backend.db.query<{
      id: string
      pay_rule: string
      counted: boolean
      not_counted_reason: string | null
      delivered: string | null
    }>(
      `select s.id, s.pay_rule, s.counted, s.not_counted_reason,
         (select d.status from public.esp_deliveries d where d.subscription_id = s.id) as delivered
       from public.newsletter_subscriptions s where s.email = $1`,
      [email],
    )
  ).rows[0]!

const ledgerOf = async (email: string) =>
  (
    await backend.db.query<{ type: string; status: string }>(
      `select t.type, t.status from public.wallet_transactions t
       join public.newsletter_subscriptions s on s.id = t.subscription_id where s.email = $1 order by t.type, t.status`,
      [email],
    )
  ).rows.map((r) => `${r.type} ${r.status}`)

/** `days` pass for a reader: its confirmation, delivery, reads and ledger dates move into the past. */
async function age(email: string, days: number) {
  const d = `${days} days`
  await backend.db.query(
    'update public.newsletter_subscriptions set confirmed_at = confirmed_at - $2::interval where email = $1',
    [email, d],
  )
  await backend.db.query(
    `update public.wallet_transactions t set available_at = t.available_at - $2::interval
     from public.newsletter_subscriptions s where s.id = t.subscription_id and s.email = $1 and t.status = 'pending'`,
    [email, d],
  )
  await backend.db.query(
    `update public.esp_deliveries x set delivered_at = x.delivered_at - $2::interval,
       engagement_checked_at = x.engagement_checked_at - $2::interval
     from public.newsletter_subscriptions s where s.id = x.subscription_id and s.email = $1`,
    [email, d],
  )
}

const readers = { clicked: '', machine: '', confirmed: '' }

beforeAll(async () => {
  database = process.env.TEST_DATABASE_URL ? await postgresDatabase() : null
  backend = await startBackend({ port: 0, dataDir: null, databaseUrl: database?.url ?? '', seed: true, cron: false })
  advertiser = await signIn('advertiser@growletter.test')
  publisher = await signIn('publisher@growletter.test')
})
afterAll(async () => {
  await backend?.close()
  await database?.drop()
})

describe('engagement-verified pay through the sandbox', () => {
  it('the advertiser switches the connected newsletter to "engaged" through the API', async () => {
    const res = await rest(`/campaigns?id=eq.${ENGAGED}`, advertiser, {
      method: 'PATCH',
      headers: { prefer: 'return=representation' },
      body: JSON.stringify({ pay_rule: 'engaged', engagement_window_days: 14 }),
    })
    expect(res.status, await res.clone().text()).toBe(200)
    expect(await res.json()).toMatchObject([{ pay_rule: 'engaged', engagement_window_days: 14 }])
    // Not connected: refused in words.
    const refused = await rest(`/campaigns?id=eq.${CONFIRMED}`, advertiser, {
      method: 'PATCH',
      body: JSON.stringify({ pay_rule: 'engaged' }),
    })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { message: string }).message).toMatch(/Connect your email tool first/)
  })

  it('delivers the readers, and the sandbox makes one click and a proxy open the other', async () => {
    readers.clicked = await reader(ENGAGED, 'clicked')
    readers.machine = await reader(ENGAGED, 'machine')
    readers.confirmed = await reader(CONFIRMED, 'confirmed')
    await backend.cron.drainNet()
    await backend.db.query('select private.dispatch_esp_deliveries()')
    await backend.cron.drainNet()
    for (const email of [readers.clicked, readers.machine])
      expect(await subscriptionOf(email)).toMatchObject({ pay_rule: 'engaged', delivered: 'delivered' })
    expect(await subscriptionOf(readers.confirmed)).toMatchObject({ pay_rule: 'confirmed' })

    const body = { provider: 'mailerlite', email: readers.clicked, opens: 1, clicks: 1 }
    expect((await engage(body, null)).status).toBe(401)
    expect((await engage(body, backend.anonKey)).status).toBe(401)
    expect((await engage(body)).status).toBe(200)
    const machine = await engage(
      { provider: 'mailerlite', email: readers.machine, machine_opens: 5, machine_clicks: 0 },
      backend.secretKey,
    )
    expect(machine.status).toBe(200)
  })

  it('at the window’s close reads both once more and settles: the click is charged, the proxy released', async () => {
    for (const email of Object.values(readers)) await age(email, 14.01)
    // The read-esp-engagement job, then the pg_net call it queued (deliver-esp reads MailerLite's API).
    const due = await backend.db.query<{ n: number }>('select private.dispatch_esp_engagement() as n')
    expect(due.rows[0]!.n).toBeGreaterThanOrEqual(2)
    await backend.cron.drainNet()
    // The settle-matured-holds job.
    await backend.db.query('select public.settle_matured_holds()')

    expect(await subscriptionOf(readers.clicked)).toMatchObject({ counted: true })
    expect(await ledgerOf(readers.clicked)).toEqual(['debit completed', 'earning completed', 'hold canceled'])
    expect(await subscriptionOf(readers.machine)).toMatchObject({ counted: false, not_counted_reason: 'not_engaged' })
    expect(await ledgerOf(readers.machine)).toEqual(['earning canceled', 'hold canceled', 'release completed'])
    expect(await subscriptionOf(readers.confirmed)).toMatchObject({ counted: true, pay_rule: 'confirmed' })
    expect(await ledgerOf(readers.confirmed)).toEqual(['debit completed', 'earning completed', 'hold canceled'])

    // The ledger balances: every wallet's balance is the sum of its completed rows, on hold the pending holds.
    const off = await backend.db.query(
      `select w.user_id from public.wallet_balances w
       where w.balance <> coalesce((select sum(t.amount) from public.wallet_transactions t
                                    where t.user_id = w.user_id and t.status = 'completed'), 0)
          or w.on_hold <> coalesce((select -sum(t.amount) from public.wallet_transactions t
                                    where t.user_id = w.user_id and t.status = 'pending' and t.type = 'hold'), 0)`,
    )
    expect(off.rows).toEqual([])
    // A second run decides nothing again.
    await backend.db.query('select public.settle_matured_holds()')
    expect(await ledgerOf(readers.machine)).toHaveLength(3)
  })

  it('shows both sides the same evidence row', async () => {
    const id = (await subscriptionOf(readers.machine)).id
    const rows = await Promise.all(
      [advertiser, publisher].map(async (bearer) => {
        const res = await rest('/rpc/subscriber_evidence', bearer, {
          method: 'POST',
          body: JSON.stringify({ p_subscription_id: id }),
        })
        expect(res.status, await res.clone().text()).toBe(200)
        return (await res.json()) as Record<string, unknown>
      }),
    )
    expect(rows[0]).toEqual(rows[1])
    // MailerLite cannot tell machines apart: it reports the proxy's five opens, no click, and only clicks count.
    expect(rows[0]).toMatchObject({
      reasons: ['not_engaged'],
      opens: 5,
      clicks: 0,
      machine_opens: null,
      engaged: false,
      decision: 'released',
    })
    const clicked = await rest('/rpc/subscriber_evidence', advertiser, {
      method: 'POST',
      body: JSON.stringify({ p_subscription_id: (await subscriptionOf(readers.clicked)).id }),
    })
    expect(await clicked.json()).toMatchObject({ opens: 1, clicks: 1, engaged: true, decision: 'charged' })
  })
})
