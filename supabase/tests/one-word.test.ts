// One word, one number: the advertiser's week names everyone who confirmed "confirmed subscribers" and those
// charged "paid subscribers" (campaign_week_figures), and they agree with the analytics' paid figure.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../embedded-backend/db/database'
import { anon, atAal2, drainClicks, errorOf, queryAs, testDb } from './helpers/db'
import { actors } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe } from './helpers/market'

let db: Db
beforeAll(async () => {
  db = await testDb()
})

describe('campaign_week_figures', () => {
  it('counts confirmed subscribers (paid or free) and paid subscribers of the last 7 days, per campaign', async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    // Paid: through the source, confirmed.
    const paid = `paid-${randomUUID()}@example.com`
    const a = await subscribe(paid, [m.campaignId], { sourceId: m.sourceId })
    await ageSubscription(paid)
    expect(await confirm(a.tokens[0]!, paid)).toMatchObject({ counted: true })
    // Free: no source, confirmed.
    const free = `free-${randomUUID()}@example.com`
    const b = await subscribe(free, [m.campaignId])
    await ageSubscription(free)
    expect(await confirm(b.tokens[0]!, free)).toMatchObject({ counted: false })
    // Pending: not confirmed, in neither figure. Old: confirmed 8 days ago, outside the week.
    await subscribe(`pending-${randomUUID()}@example.com`, [m.campaignId], { sourceId: m.sourceId })
    const old = `old-${randomUUID()}@example.com`
    const c = await subscribe(old, [m.campaignId])
    await ageSubscription(old)
    await confirm(c.tokens[0]!, old)
    await db.query(
      `update public.newsletter_subscriptions set confirmed_at = now() - interval '8 days' where email = $1`,
      [old],
    )

    expect(
      await queryAs(
        m.advertiser.actor,
        'select campaign_id, confirmed_subscribers::int, paid_subscribers::int from public.campaign_week_figures()',
      ),
    ).toEqual([{ campaign_id: m.campaignId, confirmed_subscribers: 2, paid_subscribers: 1 }])
    // The analytics' "Paid subscribers" for all time is the same counted subscriber.
    expect(
      await queryAs(m.advertiser.actor, 'select conversions::int from public.figure_totals($1)', [m.campaignId]),
    ).toEqual([{ conversions: 1 }])
    // Only the caller's campaigns; visitors cannot call it.
    expect(await queryAs(m.publisher.actor, 'select * from public.campaign_week_figures()')).toEqual([])
    expect(await errorOf(anon, 'select * from public.campaign_week_figures()')).toMatch(/permission denied/)
  })
})

// Issue 38: a source's counted clicks are distinct clicks on every screen (the admin's analytics of a source
// included), and "confirmed subscribers" is one definition — confirmed by email, not refunded — on the advertiser's
// Overview, their Subscribers page and the publisher's figures.
describe('one number per label, second pass', () => {
  it('counts a visitor who picked two newsletters once in the source’s counted clicks, for admin and publisher alike', async () => {
    const m = await createMarket({ deposit: 100, price: 2, budget: 50 })
    const second = await db.query<{ id: string }>(
      `insert into public.campaigns (advertiser_id, name, price_per_subscriber, budget_total, status)
       values ($1, 'Second letter', 2, 50, 'active') returning id`,
      [m.advertiser.id],
    )
    const both = [m.campaignId, second.rows[0]!.id]
    // One reader subscribes to both newsletters through one click; another to the first only.
    const one = `both-${randomUUID()}@example.com`
    const a = await subscribe(one, both, { sourceId: m.sourceId })
    await ageSubscription(one)
    for (const token of a.tokens) await confirm(token, one)
    const two = `single-${randomUUID()}@example.com`
    const b = await subscribe(two, [m.campaignId], { sourceId: m.sourceId })
    await ageSubscription(two)
    await confirm(b.tokens[0]!, two)
    await drainClicks()

    const pairs = await queryAs<{ clicks: number }>(
      atAal2(actors.admin),
      'select clicks::int from public.campaign_source_figures(null, $1)',
      [m.sourceId],
    )
    // The per-newsletter rows count the first reader's click once per newsletter (3 in all) …
    expect(pairs.reduce((n, r) => n + r.clicks, 0)).toBe(3)
    // … but the source's counted clicks are the 2 distinct clicks, on the admin's analytics and the publisher's Stats.
    const [adminTotals] = await queryAs<{ clicks: number; conversions: number; ctr: string }>(
      atAal2(actors.admin),
      'select clicks::int, conversions::int, ctr::text from public.figure_totals(null, $1)',
      [m.sourceId],
    )
    const [stats] = await queryAs<{ clicks: number; conversions: number; ctr: string }>(
      m.publisher.actor,
      "select clicks::int, conversions::int, ctr::text from public.publisher_figures('source')",
    )
    expect(adminTotals).toEqual({ clicks: 2, conversions: 3, ctr: '150.00' })
    expect(stats).toEqual(adminTotals)
    const daily = await queryAs<{ clicks: number }>(
      atAal2(actors.admin),
      'select clicks::int from public.daily_figures(null, $1)',
      [m.sourceId],
    )
    expect(daily.reduce((n, r) => n + r.clicks, 0)).toBe(2)
  })

  it('names confirmed, not refunded readers "confirmed subscribers" on the Overview, the Subscribers page and the publisher’s figures', async () => {
    const m = await createMarket({ deposit: 100, price: 5, budget: 100 })
    const emails = [0, 1, 2].map((i) => `reader${i}-${randomUUID()}@example.com`)
    for (const email of emails) {
      const s = await subscribe(email, [m.campaignId], { sourceId: m.sourceId })
      await ageSubscription(email)
      expect(await confirm(s.tokens[0]!, email)).toMatchObject({ counted: true })
    }
    await db.query(
      "select public.refund_subscription(id, 'fraud') from public.newsletter_subscriptions where email = $1",
      [emails[0]],
    )
    const week = await queryAs<{ confirmed_subscribers: number; paid_subscribers: number }>(
      m.advertiser.actor,
      'select confirmed_subscribers::int, paid_subscribers::int from public.campaign_week_figures()',
    )
    expect(week).toEqual([{ confirmed_subscribers: 2, paid_subscribers: 2 }])
    expect(
      await queryAs(
        m.advertiser.actor,
        'select confirmed::int, refunded::int from public.campaign_subscriber_totals($1)',
        [m.campaignId],
      ),
    ).toEqual([{ confirmed: 2, refunded: 1 }])
    // The list still shows the refunded reader (named as refunded), so the pager counts 3 rows.
    expect(
      await queryAs(m.advertiser.actor, 'select public.campaign_subscriber_count($1)::int as n', [m.campaignId]),
    ).toEqual([{ n: 3 }])
    expect(
      await queryAs(m.publisher.actor, 'select confirmations::int, conversions::int from public.source_totals()'),
    ).toEqual([{ confirmations: 2, conversions: 2 }])
    // The admin's ledger reads the refund as the advertiser's statement does: the amount given back, the subscriber,
    // source and newsletter; the advertiser's statement names the subscriber and source too.
    const release = await queryAs<Record<string, unknown>>(
      atAal2(actors.admin),
      `select type, amount::text, refunded::text, subscriber_email, source_name, newsletter_name
       from public.admin_ledger($1, 'release')`,
      [m.advertiser.email],
    )
    expect(release).toEqual([
      {
        type: 'release',
        amount: '0.00',
        refunded: '5.00',
        subscriber_email: emails[0],
        source_name: 'Test source',
        newsletter_name: 'Test newsletter',
      },
    ])
    const statement = await queryAs<Record<string, unknown>>(
      m.advertiser.actor,
      "select status, refunded::text, subscriber_email, source_name from public.wallet_statement(p_kind => 'charge')",
    )
    expect(statement).toContainEqual({
      status: 'refunded',
      refunded: '5.00',
      subscriber_email: emails[0],
      source_name: 'Test source',
    })
    const [deposit] = await queryAs<{ reference: string }>(
      m.advertiser.actor,
      "select reference from public.wallet_statement(p_kind => 'deposit')",
    )
    expect(deposit!.reference).toMatch(/^test-/)
    // The subscribers CSV names the refunded reader refunded.
    expect(
      await queryAs(m.advertiser.actor, 'select status from public.campaign_subscribers_export($1) where email = $2', [
        m.campaignId,
        emails[0],
      ]),
    ).toEqual([{ status: 'refunded' }])
    // Someone else's campaign: refused, as the subscriber list is.
    expect(
      await errorOf(m.publisher.actor, 'select * from public.campaign_subscriber_totals($1)', [m.campaignId]),
    ).not.toBe('')
    expect(await errorOf(anon, 'select * from public.campaign_subscriber_totals($1)', [m.campaignId])).toMatch(
      /permission denied/,
    )
  })
})
