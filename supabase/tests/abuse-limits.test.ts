// Issue 21, the low and medium findings that SQL decides, each performed as the API would run it beside
// the honest path: bot clicks and never-confirmed subscriptions sinking a rival's quality figures, the
// unthrottled webhook resend, a /contact flood, one Gmail inbox under 15 spellings, unlimited checkouts.
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { anon, drainClicks, errorOf, queryAs, service, testDb } from './helpers/db'
import { actors, createUser } from './helpers/fixtures'
import { ageSubscription, clickSource, confirm, createMarket, newVisitor, subscribe } from './helpers/market'

const address = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@example.com`

describe('attack: sinking a rival source’s public quality figures', () => {
  const quality = async (id: string) =>
    (
      await queryAs(
        anon,
        'select quality_counted_share::text as share, quality_confirmation_rate::text as rate from public.audience_sources where id = $1',
        [id],
      )
    )[0]

  it('200 bot clicks and 30 never-confirmed click-less subscriptions leave the counted share and confirmation rate as they were', async () => {
    const m = await createMarket({ deposit: 100, price: 1, budget: 100 })
    // Honest traffic: 20 real visitors, 5 of whom subscribe through their click; 4 confirm.
    const emails = [0, 1, 2, 3, 4].map((i) => address(`reader${i}`))
    const tokens: string[] = []
    for (const email of emails)
      tokens.push((await subscribe(email, [m.campaignId], { sourceId: m.sourceId })).tokens[0]!)
    for (let i = 0; i < 15; i++) await clickSource(m.sourceId)
    for (const [i, email] of emails.slice(0, 4).entries()) {
      await ageSubscription(email)
      await confirm(tokens[i]!, email)
    }
    await drainClicks()
    await queryAs(service, 'select public.refresh_source_quality()')
    expect(await quality(m.sourceId)).toEqual({ share: '100.0', rate: '80.0' })

    // The attack: crawler clicks from ever-new addresses (200 here; the 400 sank it to 5.9%), and
    // subscriptions started with no click at all.
    for (let i = 0; i < 200; i++)
      await clickSource(m.sourceId, { ...newVisitor(), userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' })
    for (let i = 0; i < 30; i++)
      await subscribe(address('bogus'), [m.campaignId], { sourceId: m.sourceId, click: false })
    await drainClicks()
    await queryAs(service, 'select public.refresh_source_quality()')
    expect(await quality(m.sourceId)).toEqual({ share: '100.0', rate: '80.0' })

    // Honest: a real visitor who clicks twice within the hour still shows as traffic that did not count.
    const twice = newVisitor()
    await clickSource(m.sourceId, twice)
    await clickSource(m.sourceId, twice)
    await drainClicks()
    await queryAs(service, 'select public.refresh_source_quality()')
    expect(await quality(m.sourceId)).toEqual({ share: '95.5', rate: '80.0' })
  }, 120_000)
})

describe('attack: resend_webhook_delivery as a request cannon', () => {
  it('allows 10 resends a minute per advertiser, then says to wait', async () => {
    const m = await createMarket({ deposit: 0 })
    const [w] = await queryAs<{ id: string }>(m.advertiser.actor, 'select id from public.create_webhook_endpoint($1)', [
      'https://hooks.example.com/cannon',
    ])
    const db = await testDb()
    const deliveries = (
      await db.query<{ id: string }>(
        `insert into public.webhook_deliveries (endpoint_id, advertiser_id, event_type, payload, status)
         select $1, $2, 'webhook.test', '{}', 'failed' from generate_series(1, 12) returning id`,
        [w!.id, m.advertiser.id],
      )
    ).rows.map((r) => r.id)
    const resend = (id: string) => errorOf(m.advertiser.actor, 'select public.resend_webhook_delivery($1)', [id])
    for (const id of deliveries.slice(0, 10)) expect(await resend(id)).toBe('')
    expect(await resend(deliveries[10]!)).toBe('You resent 10 deliveries in the last minute; wait a moment')
    // Honest: a minute later the advertiser can resend again.
    await db.query("update private.rate_limits set window_start = now() - interval '61 seconds' where key = $1", [
      `webhook-resend:${m.advertiser.id}`,
    ])
    expect(await resend(deliveries[10]!)).toBe('')
  })
})

describe('attack: flooding /contact', () => {
  const send = (ip: string, email: string) =>
    errorOf(
      anon,
      `insert into public.contact_messages (name, email, subject, message) values ('Kim', $1, 'Hello', 'A question')`,
      [email],
      { 'x-real-ip': ip },
    )
  const FLOOD = 'You have sent several messages in a short time. Please wait a few minutes before sending another.'

  it('takes 5 messages per address in 10 minutes and 5 per inbox an hour, however the inbox is spelled', async () => {
    const ip = newVisitor().ip
    for (let i = 0; i < 5; i++) expect(await send(ip, address(`flood${i}`))).toBe('')
    expect(await send(ip, address('flood6'))).toBe(FLOOD)
    const local = `kim${randomUUID().slice(0, 6)}`
    const spellings = [
      `${local}@gmail.com`,
      `${local.slice(0, 2)}.${local.slice(2)}@gmail.com`,
      `${local}+a@googlemail.com`,
      `${local.toUpperCase()}@gmail.com`,
      `${local}+b@gmail.com`,
    ]
    for (const email of spellings) expect(await send(newVisitor().ip, email)).toBe('')
    expect(await send(newVisitor().ip, `${local.slice(0, 1)}.${local.slice(1)}+c@gmail.com`)).toBe(FLOOD)
    // Honest: someone else, from another address, is heard.
    expect(await send(newVisitor().ip, address('someone'))).toBe('')
    expect(
      await errorOf(
        actors.publisher,
        `insert into public.contact_messages (name, email, subject, message) values ('Pat', $1, 'Hi', 'Hello')`,
        [address('pat')],
        {
          'x-real-ip': newVisitor().ip,
        },
      ),
    ).toBe('')
  })
})

describe('attack: one Gmail inbox under many spellings', () => {
  it('counts confirmation emails per canonical inbox: 3 an hour across dots, +tags and googlemail.com', async () => {
    const local = `victim${randomUUID().slice(0, 6)}`
    const spellings = Array.from({ length: 15 }, (_, i) =>
      i % 3 === 0
        ? `${local.slice(0, (i % 5) + 1)}.${local.slice((i % 5) + 1)}@gmail.com`
        : i % 3 === 1
          ? `${local}+${i}@googlemail.com`
          : `${local.toUpperCase()}@GMail.com`,
    )
    const waits: number[] = []
    for (const email of spellings)
      waits.push(
        (
          await queryAs<{ wait: number }>(service, 'select public.take_confirmation_email_allowance($1) as wait', [
            email,
          ])
        )[0]!.wait,
      )
    expect(waits.slice(0, 3)).toEqual([0, 0, 0])
    expect(waits.slice(3).every((w) => w > 0 && w <= 3600)).toBe(true)
    // Honest: another inbox has its own allowance.
    expect(
      await queryAs(service, 'select public.take_confirmation_email_allowance($1) as wait', [address('other')]),
    ).toEqual([{ wait: 0 }])
    expect(await errorOf(anon, 'select public.take_confirmation_email_allowance($1)', ['x@example.com'])).toMatch(
      /permission denied/,
    )
  })
})

describe('attack: opening checkout sessions without end', () => {
  it('refuses a sixth open checkout per advertiser with a message they can act on', async () => {
    const a = await createUser('advertiser')
    const open = (session = `cs_${randomUUID()}`, expires = "now() + interval '1 hour'") =>
      queryAs(service, `select public.open_deposit($1, 25, $2, ${expires})`, [a.id, session])
    const check = (userId = a.id) => errorOf(service, 'select public.check_checkout_allowance($1)', [userId])
    await open(undefined, "now() - interval '1 minute'") // an abandoned one that has expired does not count
    for (let i = 0; i < 5; i++) {
      expect(await check()).toBe('')
      await open()
    }
    expect(await check()).toBe(
      'You already have 5 payment pages open. Finish or cancel one, or wait an hour, before opening another.',
    )
    // Honest: another advertiser, and the same one once a session is paid.
    expect(await check((await createUser('advertiser')).id)).toBe('')
    const db = await testDb()
    const [pending] = (
      await db.query<{ stripe_session_id: string }>(
        "select stripe_session_id from public.deposits where user_id = $1 and status = 'pending' and expires_at > now() limit 1",
        [a.id],
      )
    ).rows
    await queryAs(service, 'select public.complete_deposit($1, $2, 25, null, true)', [pending!.stripe_session_id, a.id])
    expect(await check()).toBe('')
    expect(await errorOf(actors.advertiser, 'select public.check_checkout_allowance($1)', [a.id])).toMatch(
      /permission denied/,
    )
  })
})

describe('rate-limit counters', () => {
  it('are purged daily once their window is a day old (purge-rate-limits)', async () => {
    const db = await testDb()
    const job = await db.query<{ schedule: string; command: string }>(
      "select schedule, command from cron.job where jobname = 'purge-rate-limits'",
    )
    expect(job.rows).toHaveLength(1)
    expect(job.rows[0]!.schedule).toBe('37 3 * * *')
    await db.query(`insert into private.rate_limits (key, window_start, hits) values ('test:old', now() - interval '2 days', 3), ('test:new', now(), 1)
      on conflict (key) do update set window_start = excluded.window_start`)
    await db.query(job.rows[0]!.command)
    const left = await db.query<{ key: string }>(
      "select key from private.rate_limits where key like 'test:%' order by key",
    )
    expect(left.rows.map((r) => r.key)).toEqual(['test:new'])
  })
})
