// One word, one number: the advertiser's week names everyone who confirmed "confirmed subscribers" and those
// charged "paid subscribers" (campaign_week_figures), and they agree with the analytics' paid figure.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../embedded-backend/db/database'
import { anon, errorOf, queryAs, testDb } from './helpers/db'
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
