// Double opt-in: create_pending_subscriptions (all or nothing, re-arming) and confirm_subscription
// (single use, 48 hours, counted or the reason it is not).
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { actors, createUser, ids } from './helpers/fixtures'
import { errorOf, queryAs, service, testDb } from './helpers/db'
import { ageSubscription, confirm, createMarket, subscribe, tokenHash } from './helpers/market'

const email = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@example.com`

describe('create_pending_subscriptions', () => {
  it('creates one pending row per newsletter, with only the token hash and a 48-hour expiry', async () => {
    const m = await createMarket()
    const address = email('new')
    const { rows, tokens } = await subscribe(address, [m.campaignId, ids.campaignActive], { sourceId: m.sourceId })
    expect(rows).toEqual([
      { campaign_id: m.campaignId, campaign_name: 'Test newsletter', result: 'pending' },
      { campaign_id: ids.campaignActive, campaign_name: 'The Frontend Brief', result: 'pending' },
    ])
    const db = await testDb()
    const stored = await db.query<{ token_hash: string; hours: number; audience_source_id: string }>(
      `select token_hash, round(extract(epoch from token_expires_at - now()) / 3600)::int as hours, audience_source_id
       from public.newsletter_subscriptions where email = $1 order by token_hash = $2 desc`,
      [address, tokenHash(tokens[0]!)],
    )
    expect(stored.rows[0]).toEqual({ token_hash: tokenHash(tokens[0]!), hours: 48, audience_source_id: m.sourceId })
  })

  it('re-arms a pending, expired or unsubscribed address with the new token and leaves a confirmed one alone', async () => {
    const m = await createMarket()
    const address = email('again')
    const first = await subscribe(address, [m.campaignId])
    const second = await subscribe(address, [m.campaignId])
    expect(second.rows[0]!.result).toBe('pending')
    expect((await confirm(first.tokens[0]!, address)).result).toBe('invalid')
    await ageSubscription(address)
    expect((await confirm(second.tokens[0]!, address)).result).toBe('confirmed')
    const third = await subscribe(address, [m.campaignId])
    expect(third.rows[0]!.result).toBe('already_confirmed')
    const db = await testDb()
    await db.query(`update public.newsletter_subscriptions set status = 'unsubscribed' where email = $1`, [address])
    expect((await subscribe(address, [m.campaignId])).rows[0]!.result).toBe('pending')
  })

  it('rejects bad input with the messages the subscribe form shows, and writes nothing', async () => {
    const m = await createMarket()
    const call = (address: string, campaigns: string[], hashes = campaigns.map(() => randomUUID())) =>
      errorOf(service, 'select * from public.create_pending_subscriptions($1, $2::uuid[], $3::text[])', [
        address,
        campaigns,
        hashes,
      ])
    expect(await call('not-an-email', [m.campaignId])).toBe('Please enter a valid email address')
    expect(await call('', [m.campaignId])).toBe('Please enter a valid email address')
    expect(await call(email('none'), [])).toBe('Choose at least one newsletter')
    expect(await call(email('mismatch'), [m.campaignId], [])).toBe('Each newsletter needs its own confirmation token')
    const address = email('atomic')
    expect(await call(address, [m.campaignId, ids.campaignPaused])).toBe('This newsletter is not accepting subscribers')
    expect(await call(address, [randomUUID()])).toBe('This newsletter is not accepting subscribers')
    const db = await testDb()
    const rows = await db.query('select 1 from public.newsletter_subscriptions where email = $1', [address])
    expect(rows.rows).toEqual([])
  })

  it('is for the service role only', async () => {
    const m = await createMarket()
    const sql = 'select * from public.create_pending_subscriptions($1, $2::uuid[], $3::text[])'
    expect(await errorOf(actors.advertiser, sql, [email('x'), [m.campaignId], ['h']])).toMatch(/permission denied/)
  })
})

describe('confirm_subscription', () => {
  it('confirms once, then answers already_confirmed for the same link', async () => {
    const m = await createMarket()
    const address = email('once')
    const { tokens } = await subscribe(address, [m.campaignId], { sourceId: m.sourceId })
    await ageSubscription(address)
    expect(await confirm(tokens[0]!, address.toUpperCase())).toEqual({
      result: 'confirmed',
      newsletter_name: 'Test newsletter',
      campaign_id: m.campaignId,
      counted: true,
      not_counted_reason: null,
    })
    expect(await confirm(tokens[0]!, address)).toMatchObject({
      result: 'already_confirmed',
      newsletter_name: 'Test newsletter',
    })
    const db = await testDb()
    const row = await db.query(`select token_hash, status from public.newsletter_subscriptions where email = $1`, [
      address,
    ])
    expect(row.rows).toEqual([{ token_hash: null, status: 'confirmed' }])
    const stats = await db.query('select total_conversions from public.campaign_source_stats where campaign_id = $1', [
      m.campaignId,
    ])
    expect(stats.rows).toEqual([{ total_conversions: 1 }])
  })

  it('answers invalid for an unknown token or another email, and expired after 48 hours', async () => {
    const m = await createMarket()
    const address = email('exp')
    const { tokens } = await subscribe(address, [m.campaignId])
    expect((await confirm(randomUUID(), address)).result).toBe('invalid')
    expect((await confirm(tokens[0]!, email('other'))).result).toBe('invalid')
    const db = await testDb()
    await db.query(
      `update public.newsletter_subscriptions set token_expires_at = now() - interval '1 second' where email = $1`,
      [address],
    )
    expect(await confirm(tokens[0]!, address)).toMatchObject({
      result: 'expired',
      newsletter_name: 'Test newsletter',
      counted: false,
    })
    expect((await confirm(tokens[0]!, address)).result).toBe('expired')
  })

  it('does not count a confirmation less than 2 seconds after the link was sent', async () => {
    const m = await createMarket()
    const address = email('fast')
    const { tokens } = await subscribe(address, [m.campaignId], { sourceId: m.sourceId })
    expect(await confirm(tokens[0]!, address)).toMatchObject({
      result: 'confirmed',
      counted: false,
      not_counted_reason: 'too_fast_confirmation',
    })
  })

  it('does not count the publisher or the advertiser subscribing through the source', async () => {
    const m = await createMarket()
    for (const who of [m.publisher.email, m.advertiser.email.replace('@', '+promo@')]) {
      const { tokens } = await subscribe(who, [m.campaignId], { sourceId: m.sourceId })
      await ageSubscription(who)
      expect(await confirm(tokens[0]!, who), who).toMatchObject({ counted: false, not_counted_reason: 'self_referral' })
    }
  })

  it('counts one inbox once per campaign across +aliases', async () => {
    const m = await createMarket()
    const base = randomUUID().slice(0, 8)
    const results = []
    for (const address of [`reader${base}@example.com`, `reader${base}+news@example.com`]) {
      const { tokens } = await subscribe(address, [m.campaignId], { sourceId: m.sourceId })
      await ageSubscription(address)
      results.push(await confirm(tokens[0]!, address))
    }
    expect(results.map((r) => r.not_counted_reason)).toEqual([null, 'duplicate_email'])
  })

  it('does not count a subscriber whose source stopped being public before confirming', async () => {
    const m = await createMarket()
    const address = email('banned')
    const { tokens } = await subscribe(address, [m.campaignId], { sourceId: m.sourceId })
    await ageSubscription(address)
    const db = await testDb()
    await db.query(`update public.audience_sources set status = 'banned' where id = $1`, [m.sourceId])
    expect(await confirm(tokens[0]!, address)).toMatchObject({
      result: 'confirmed',
      counted: false,
      not_counted_reason: 'source_inactive',
    })
  })

  it('attributes through the click id when it belongs to the source, and ignores a foreign one', async () => {
    const m = await createMarket()
    const clicks = await queryAs<{ r: { click_id: string } }>(
      service,
      'select public.track_audience_source_click($1, $2) as r',
      [m.code, {}],
      {
        'user-agent': 'Mozilla/5.0 Firefox/130.0',
        'x-real-ip': '192.0.2.200',
      },
    )
    const clickId = clicks[0]!.r.click_id
    const address = email('click')
    await subscribe(address, [m.campaignId], { clickId })
    const other = email('foreign')
    await subscribe(other, [m.campaignId], { clickId, sourceId: ids.sourceApproved })
    const db = await testDb()
    const rows = await db.query<{ email: string; audience_source_id: string; click_id: string | null }>(
      'select email::text, audience_source_id, click_id from public.newsletter_subscriptions where email in ($1, $2) order by email = $1 desc',
      [address, other],
    )
    expect(rows.rows).toEqual([
      { email: address, audience_source_id: m.sourceId, click_id: clickId },
      { email: other, audience_source_id: ids.sourceApproved, click_id: null },
    ])
  })

  it('is for the service role only', async () => {
    const u = await createUser('advertiser')
    expect(await errorOf(u.actor, 'select public.confirm_subscription($1, $2)', ['x', 'y@example.com'])).toMatch(
      /permission denied/,
    )
  })
})
