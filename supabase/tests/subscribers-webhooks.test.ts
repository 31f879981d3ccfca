// The advertiser's subscribers (PRODUCT "Subscriptions"): the confirmed-only list, its search and keyset
// export pages, and webhooks — endpoints refused when they point at a private address, a secret shown once,
// events queued in the confirming/refunding transaction, retries on schedule, resend and the test event.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { anon, errorOf, queryAs, service, testDb, STORE_VAULT_SECRETS } from './helpers/db'
import { createUser } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe, type Market } from './helpers/market'

let m: Market
const tag = randomUUID().slice(0, 6)
const confirmedEmails = [`=cmd-${tag}@example.com`, `ann-${tag}@example.com`, `bob_${tag}@example.com`]
const pendingEmail = `pending-${tag}@example.com`

async function confirmed(email: string, withSource = true) {
  const s = await subscribe(email, [m.campaignId], withSource ? { sourceId: m.sourceId } : {})
  await ageSubscription(email)
  await confirm(s.tokens[0]!, email)
}

beforeAll(async () => {
  m = await createMarket({ deposit: 200, price: 5, budget: 100 })
  await confirmed(confirmedEmails[0]!)
  await confirmed(confirmedEmails[1]!, false)
  await confirmed(confirmedEmails[2]!)
  await subscribe(pendingEmail, [m.campaignId], { sourceId: m.sourceId })
})

describe('subscriber list', () => {
  it('lists confirmed subscribers newest first with source and charge, never a pending one', async () => {
    const rows = await queryAs<{
      email: string
      source_name: string | null
      status: string
      counted: boolean
      price: string | null
    }>(
      m.advertiser.actor,
      'select email, source_name, status, counted, price::text from public.campaign_subscribers($1, null, 25, 0)',
      [m.campaignId],
    )
    expect(rows.map((r) => r.email)).toEqual([...confirmedEmails].reverse())
    expect(rows[0]).toEqual({
      email: confirmedEmails[2],
      source_name: 'Test source',
      status: 'confirmed',
      counted: true,
      price: '5.00',
    })
    expect(rows[1]).toMatchObject({ email: confirmedEmails[1], source_name: null, counted: false, price: null })
    const count = await queryAs<{ n: string }>(
      m.advertiser.actor,
      'select public.campaign_subscriber_count($1)::text as n',
      [m.campaignId],
    )
    expect(count[0]!.n).toBe('3')
  })

  it('searches by any part of the address, treating _ and % as letters', async () => {
    const found = await queryAs<{ email: string }>(
      m.advertiser.actor,
      'select email from public.campaign_subscribers($1, $2)',
      [m.campaignId, `b_${tag}`],
    )
    expect(found.map((r) => r.email)).toEqual([confirmedEmails[2]])
    const none = await queryAs(m.advertiser.actor, 'select email from public.campaign_subscribers($1, $2)', [
      m.campaignId,
      '%',
    ])
    expect(none).toEqual([])
  })

  it('pages the export by keyset without repeating or skipping a row', async () => {
    const first = await queryAs<{ id: string; email: string; confirmed_at: Date; charged: string }>(
      m.advertiser.actor,
      'select id, email, confirmed_at, charged from public.campaign_subscribers_export($1, null, null, 2)',
      [m.campaignId],
    )
    const last = first[1]!
    const next = await queryAs<{ email: string; charged: string }>(
      m.advertiser.actor,
      'select email, charged from public.campaign_subscribers_export($1, $2, $3, 2)',
      [m.campaignId, last.confirmed_at, last.id],
    )
    expect([...first, ...next].map((r) => r.email)).toEqual([...confirmedEmails].reverse())
    expect(first[1]!.charged).toBe('no (no source)')
    expect(next[0]!.charged).toBe('yes')
  })

  it("refuses someone else's campaign and a page size out of range", async () => {
    const other = await createUser('advertiser')
    expect(await errorOf(other.actor, 'select * from public.campaign_subscribers($1)', [m.campaignId])).toBe(
      'You can only see subscribers of your own campaigns',
    )
    expect(
      await errorOf(m.publisher.actor, 'select * from public.campaign_subscribers_export($1)', [m.campaignId]),
    ).toBe('You can only see subscribers of your own campaigns')
    expect(
      await errorOf(m.advertiser.actor, 'select * from public.campaign_subscribers($1, null, 500)', [m.campaignId]),
    ).toBe('Ask for 1 to 100 subscribers at a time')
    expect(
      await errorOf(m.advertiser.actor, 'select * from public.campaign_subscribers($1, null, 10, -1)', [m.campaignId]),
    ).toBe('The page must be 0 or more')
    expect(
      await errorOf(m.advertiser.actor, 'select * from public.campaign_subscribers_export($1, null, null, 9999)', [
        m.campaignId,
      ]),
    ).toBe('Ask for 1 to 5000 subscribers at a time')
  })
})

describe('webhook endpoints', () => {
  it.each([
    ['http://example.com/hook', 'The URL must start with https://'],
    ['https://localhost/hook', 'localhost is not a public address'],
    ['https://api.localhost:8443/hook', 'localhost is not a public address'],
    ['https://127.0.0.1/hook', 'The address 127.0.0.1 is private, loopback or link-local; use a public address'],
    ['https://10.1.2.3/hook', 'The address 10.1.2.3 is private, loopback or link-local; use a public address'],
    [
      'https://169.254.169.254/latest',
      'The address 169.254.169.254 is private, loopback or link-local; use a public address',
    ],
    ['https://192.168.0.10/', 'The address 192.168.0.10 is private, loopback or link-local; use a public address'],
    ['https://[::1]/hook', 'The address ::1 is private, loopback or link-local; use a public address'],
    ['https://[fe80::1]/hook', 'The address fe80::1 is private, loopback or link-local; use a public address'],
    [
      'https://[::ffff:10.0.0.1]/hook',
      'The address ::ffff:10.0.0.1 is private, loopback or link-local; use a public address',
    ],
    ['https://0x7f.1/hook', 'Write an IP address as four numbers from 0 to 255, or use a domain name'],
    ['https://2130706433/hook', 'Write an IP address as four numbers from 0 to 255, or use a domain name'],
    [
      'https://user:pw@example.com/hook',
      'Leave user names and passwords out of the URL; verify the webhook signature instead',
    ],
    ['https://intranet/hook', 'Use a public domain name, such as example.com'],
    ['https://printer.local/hook', 'The name printer.local is for a private network; use a public address'],
    ['http://127.0.0.1:9999/hook', 'The URL must start with https://'],
    ['not a url', 'Enter a full URL, such as https://example.com/webhooks'],
  ])('refuses %s when it is saved', async (url, message) => {
    expect(await errorOf(m.advertiser.actor, 'select * from public.create_webhook_endpoint($1)', [url])).toBe(message)
  })

  it('refuses a private address on update too', async () => {
    const [w] = await queryAs<{ id: string }>(m.advertiser.actor, 'select id from public.create_webhook_endpoint($1)', [
      'https://hooks.example.com/a',
    ])
    expect(
      await errorOf(m.advertiser.actor, 'update public.webhook_endpoints set url = $2 where id = $1', [
        w!.id,
        'https://10.0.0.1/',
      ]),
    ).toBe('The address 10.0.0.1 is private, loopback or link-local; use a public address')
    await queryAs(m.advertiser.actor, 'delete from public.webhook_endpoints where id = $1', [w!.id])
  })

  it('allows http://127.0.0.1 only where the embedded backend says it is local development', async () => {
    const db = await testDb()
    await db.query('update private.settings set allow_loopback_webhooks = true')
    try {
      const [w] = await queryAs<{ id: string }>(
        m.advertiser.actor,
        'select id from public.create_webhook_endpoint($1)',
        ['http://127.0.0.1:9/hook'],
      )
      expect(w!.id).toBeTruthy()
      expect(
        await errorOf(m.advertiser.actor, 'select * from public.create_webhook_endpoint($1)', ['http://10.0.0.1/']),
      ).toBe('The URL must start with https://')
      await queryAs(m.advertiser.actor, 'delete from public.webhook_endpoints where id = $1', [w!.id])
    } finally {
      await db.query('update private.settings set allow_loopback_webhooks = false')
    }
  })

  it('shows the secret once, in the Standard Webhooks format, and never lets the API read it back', async () => {
    const [w] = await queryAs<{ id: string; secret: string }>(
      m.advertiser.actor,
      'select * from public.create_webhook_endpoint($1)',
      ['https://hooks.example.com/secret'],
    )
    expect(w!.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(
      await errorOf(m.advertiser.actor, 'select secret from public.webhook_endpoints where id = $1', [w!.id]),
    ).toMatch(/permission denied/)
    const rotated = await queryAs<{ s: string }>(m.advertiser.actor, 'select public.rotate_webhook_secret($1) as s', [
      w!.id,
    ])
    expect(rotated[0]!.s).not.toBe(w!.secret)
    const other = await createUser('advertiser')
    expect(await errorOf(other.actor, 'select public.rotate_webhook_secret($1)', [w!.id])).toBe(
      'You can only change your own webhook endpoints',
    )
    await queryAs(m.advertiser.actor, 'delete from public.webhook_endpoints where id = $1', [w!.id])
  })

  it('allows at most 10 endpoints per advertiser', async () => {
    const a = await createUser('advertiser')
    for (let i = 0; i < 10; i++)
      await queryAs(a.actor, 'select * from public.create_webhook_endpoint($1)', [`https://hooks.example.com/${i}`])
    expect(
      await errorOf(a.actor, 'select * from public.create_webhook_endpoint($1)', ['https://hooks.example.com/11']),
    ).toBe('You can have at most 10 webhook endpoints; delete one first')
  })

  it("refuses publishers and other people's campaigns", async () => {
    expect(
      await errorOf(m.publisher.actor, 'select * from public.create_webhook_endpoint($1)', [
        'https://hooks.example.com/p',
      ]),
    ).toBe('Only advertisers can receive subscriber webhooks')
    const other = await createUser('advertiser')
    expect(
      await errorOf(other.actor, 'select * from public.create_webhook_endpoint($1, $2)', [
        'https://hooks.example.com/o',
        m.campaignId,
      ]),
    ).toBe('Choose one of your own newsletters')
  })
})

describe('webhook deliveries', () => {
  type Delivery = {
    id: string
    event_type: string
    status: string
    attempts: number
    payload: { type: string; data: Record<string, unknown> }
  }
  let market: Market
  let endpointId: string
  const deliveries = async () =>
    queryAs<Delivery>(
      market.advertiser.actor,
      'select id, event_type, status, attempts, payload from public.webhook_deliveries order by created_at',
    )

  beforeAll(async () => {
    market = await createMarket({ deposit: 200, price: 5, budget: 100 })
    const [w] = await queryAs<{ id: string }>(
      market.advertiser.actor,
      'select id from public.create_webhook_endpoint($1, $2)',
      ['https://hooks.example.com/deliveries', market.campaignId],
    )
    endpointId = w!.id
  })

  it('queues subscriber.confirmed in the confirming transaction, and nothing for a pending subscriber', async () => {
    const email = `hook-${tag}@example.com`
    const s = await subscribe(email, [market.campaignId], { sourceId: market.sourceId })
    expect(await deliveries()).toEqual([])
    await ageSubscription(email)
    const db = await testDb()
    await db.exec(STORE_VAULT_SECRETS)
    try {
      await confirm(s.tokens[0]!, email)
    } finally {
      await db.query("delete from vault.secrets where name in ('project_url', 'functions_secret')")
    }
    const [d] = await deliveries()
    expect(d).toMatchObject({ event_type: 'subscriber.confirmed', status: 'pending', attempts: 0 })
    expect(d!.payload.type).toBe('subscriber.confirmed')
    expect(d!.payload.data).toMatchObject({
      email,
      campaign_id: market.campaignId,
      source_name: 'Test source',
      charged: true,
      price: 5,
    })
    // …and asked for delivery right away, through pg_net after commit (Vault holds the project URL).
    const kicked = await db.query<{ n: string }>(
      "delete from net.http_request_queue where url like '%/functions/v1/deliver-webhooks' returning 1 as n",
    )
    expect(kicked.rows).toHaveLength(1)
  })

  it('queues subscriber.refunded when a paid subscriber is refunded during screening', async () => {
    await queryAs(
      service,
      "select public.refund_subscription(id, 'fraud') from public.newsletter_subscriptions where campaign_id = $1",
      [market.campaignId],
    )
    const all = await deliveries()
    expect(all.map((d) => d.event_type)).toEqual(['subscriber.confirmed', 'subscriber.refunded'])
    expect(all[1]!.payload.data).toMatchObject({ charged: false, reason: 'refunded', price: 5 })
  })

  it('retries on schedule over about a day, then gives up; a 2xx delivers; resend starts again', async () => {
    const db = await testDb()
    const [first] = await deliveries()
    const waits: number[] = []
    for (let attempt = 1; attempt <= 8; attempt++) {
      await db.query(
        "update public.webhook_deliveries set next_attempt_at = now() - interval '1 second' where id = $1",
        [first!.id],
      )
      const claimed = await queryAs<{ id: string; secret: string; attempts: number }>(
        service,
        'select * from public.claim_webhook_deliveries(100)',
      )
      const mine = claimed.find((c) => c.id === first!.id)!
      expect(mine.attempts).toBe(attempt)
      expect(mine.secret).toMatch(/^whsec_/)
      const [r] = await queryAs<{ r: string }>(service, 'select public.finish_webhook_delivery($1, 500) as r', [
        first!.id,
      ])
      expect(r!.r).toBe(attempt < 8 ? 'pending' : 'failed')
      const row = await db.query<{ wait: number }>(
        'select extract(epoch from next_attempt_at - now())::int as wait from public.webhook_deliveries where id = $1',
        [first!.id],
      )
      if (attempt < 8) waits.push(row.rows[0]!.wait)
    }
    expect(waits).toEqual([60, 300, 1800, 7200, 18000, 36000, 36000])
    expect(waits.reduce((a, b) => a + b, 0) / 3600).toBeGreaterThan(24)
    const [gaveUp] = await queryAs<{ status: string; response_status: number; last_error: string }>(
      market.advertiser.actor,
      'select status, response_status, last_error from public.webhook_deliveries where id = $1',
      [first!.id],
    )
    expect(gaveUp).toEqual({ status: 'failed', response_status: 500, last_error: 'The endpoint answered 500' })

    await queryAs(market.advertiser.actor, 'select public.resend_webhook_delivery($1)', [first!.id])
    const again = await queryAs<{ id: string; attempts: number }>(
      service,
      'select * from public.claim_webhook_deliveries(100)',
    )
    expect(again.find((c) => c.id === first!.id)?.attempts).toBe(1)
    await queryAs(service, 'select public.finish_webhook_delivery($1, 204)', [first!.id])
    const [done] = await queryAs<{ status: string; response_status: number }>(
      market.advertiser.actor,
      'select status, response_status from public.webhook_deliveries where id = $1',
      [first!.id],
    )
    expect(done).toEqual({ status: 'succeeded', response_status: 204 })
    expect(await errorOf(market.publisher.actor, 'select public.resend_webhook_delivery($1)', [first!.id])).toBe(
      'You can only resend your own deliveries',
    )
  })

  it('sends a test event on request, at most 5 a minute', async () => {
    for (let i = 0; i < 5; i++)
      await queryAs(market.advertiser.actor, 'select public.send_test_webhook($1)', [endpointId])
    expect(await errorOf(market.advertiser.actor, 'select public.send_test_webhook($1)', [endpointId])).toBe(
      'You sent 5 test events in the last minute; wait a moment',
    )
    const tests = (await deliveries()).filter((d) => d.event_type === 'webhook.test')
    expect(tests).toHaveLength(5)
    expect(await errorOf(market.advertiser.actor, 'select public.resend_webhook_delivery($1)', [tests[0]!.id])).toBe(
      'This delivery is already waiting to be sent',
    )
    const other = await createUser('advertiser')
    expect(await errorOf(other.actor, 'select public.send_test_webhook($1)', [endpointId])).toBe(
      'You can only test your own webhook endpoints',
    )
  })

  it('lets nobody but the service role claim or finish deliveries', async () => {
    expect(await errorOf(market.advertiser.actor, 'select * from public.claim_webhook_deliveries(1)')).toMatch(
      /permission denied/,
    )
    expect(
      await errorOf(market.advertiser.actor, 'select public.finish_webhook_delivery($1, 200)', [endpointId]),
    ).toMatch(/permission denied/)
  })
})

describe('directory quality', () => {
  type Quality = {
    quality_counted_clicks: number | null
    quality_confirmation_rate: string | null
    quality_counted_share: string | null
  }
  const quality = async (id: string) =>
    (
      await queryAs<Quality>(
        anon,
        'select quality_counted_clicks, quality_confirmation_rate::text, quality_counted_share::text from public.audience_sources where id = $1',
        [id],
      )
    )[0]!

  it('rates a source from 20 counted clicks in 30 days: confirmation rate and counted share, refreshed by the job', async () => {
    const market = await createMarket({ deposit: 0 })
    const db = await testDb()
    const stats = (day: string, clicks: number, counted: number, subs: number, confs: number) =>
      db.query(
        // Every subscription here came through a counted click (backed_*), as the rate's denominator wants.
        `insert into public.source_daily_stats (audience_source_id, day, clicks, counted_clicks, subscriptions, confirmations,
           backed_subscriptions, backed_confirmations)
         values ($1, $2::date, $3, $4, $5, $6, $5, $6)
         on conflict (audience_source_id, day) do update set clicks = excluded.clicks, counted_clicks = excluded.counted_clicks,
           subscriptions = excluded.subscriptions, confirmations = excluded.confirmations,
           backed_subscriptions = excluded.backed_subscriptions, backed_confirmations = excluded.backed_confirmations`,
        [market.sourceId, day, clicks, counted, subs, confs],
      )
    const ago = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10)
    await stats(ago(3), 12, 10, 4, 3)
    await stats(ago(10), 12, 9, 4, 2)
    await stats(ago(40), 100, 100, 50, 50) // outside the window
    await queryAs(service, 'select public.refresh_source_quality()')
    expect(await quality(market.sourceId)).toEqual({
      quality_counted_clicks: 19,
      quality_confirmation_rate: null,
      quality_counted_share: null,
    })

    await stats(ago(0), 6, 1, 2, 2)
    await queryAs(service, 'select public.refresh_source_quality()')
    // 20 counted of 30 clicks; 7 confirmed of 10 started.
    expect(await quality(market.sourceId)).toEqual({
      quality_counted_clicks: 20,
      quality_confirmation_rate: '70.0',
      quality_counted_share: '66.7',
    })
    // Unchanged figures are not rewritten.
    const [again] = await queryAs<{ n: number }>(service, 'select public.refresh_source_quality() as n')
    expect(again!.n).toBe(0)
  })

  it('lets nobody but the platform write quality figures', async () => {
    const market = await createMarket({ deposit: 0 })
    expect(
      await errorOf(
        market.publisher.actor,
        'update public.audience_sources set quality_confirmation_rate = 100 where id = $1',
        [market.sourceId],
      ),
    ).toBe('permission denied for table audience_sources')
    expect(await errorOf(market.publisher.actor, 'select public.refresh_source_quality()')).toMatch(/permission denied/)
  })
})
