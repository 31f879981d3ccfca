// Screening and limits: a counted subscriber holds the price on the advertiser and earns the publisher
// 80% pending; both settle after 7 days or are refunded during them; a campaign never spends past its
// budget or its advertiser's available balance, even under concurrent confirmations.
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { anon, errorOf, queryAs, service, testDb } from './helpers/db'
import { actors, ledgerMismatches } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe, walletOf, type Market } from './helpers/market'

afterEach(async () => {
  expect(await ledgerMismatches()).toEqual([])
})

type Json = Record<string, unknown>
const one = async (actor: Parameters<typeof queryAs>[0], sql: string, params: unknown[] = []) =>
  (await queryAs<{ r: Json }>(actor, sql, params))[0]!.r

async function counted(m: Awaited<ReturnType<typeof createMarket>>, email: string) {
  const { tokens } = await subscribe(email, [m.campaignId], { sourceId: m.sourceId })
  await ageSubscription(email)
  return confirm(tokens[0]!, email)
}

describe('holds, earnings and screening', () => {
  it('holds the price on the advertiser, earns 80% pending for the publisher, and settles after 7 days', async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    expect(await counted(m, `a-${randomUUID()}@example.com`)).toMatchObject({ result: 'confirmed', counted: true })
    expect(await walletOf(m.advertiser.id)).toMatchObject({ balance: '100.00', held: '10.00', available: '90.00' })
    expect(await walletOf(m.publisher.id)).toMatchObject({ balance: '0.00', pending_earnings: '8.00' })

    // Six days on, nothing of this market settles (other files' readers in the shared database may: the count is
    // theirs, so the wallets say it).
    await one(service, `select public.settle_matured_holds(now() + interval '6 days') as r`)
    expect(await walletOf(m.advertiser.id)).toMatchObject({ balance: '100.00', held: '10.00', available: '90.00' })
    expect(await walletOf(m.publisher.id)).toMatchObject({ balance: '0.00', pending_earnings: '8.00' })
    const settled = await one(service, `select public.settle_matured_holds(now() + interval '7 days 1 minute') as r`)
    expect(settled).toBeGreaterThanOrEqual(2)
    expect(await walletOf(m.advertiser.id)).toMatchObject({ balance: '90.00', held: '0.00', available: '90.00' })
    expect(await walletOf(m.publisher.id)).toMatchObject({ balance: '8.00', pending_earnings: '0.00' })
    const ledger = await queryAs(
      m.advertiser.actor,
      `select type, status, amount::text from public.wallet_transactions where type <> 'deposit' order by type`,
    )
    expect(ledger).toEqual([
      { type: 'debit', status: 'completed', amount: '-10.00' },
      { type: 'hold', status: 'canceled', amount: '-10.00' },
    ])
    expect(await errorOf(m.advertiser.actor, 'select public.settle_matured_holds()')).toMatch(/permission denied/)
  })

  it('refunds a subscriber rejected during screening and refuses once screening is over', async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    const email = `r-${randomUUID()}@example.com`
    await counted(m, email)
    const db = await testDb()
    const subId = (
      await db.query<{ id: string }>('select id from public.newsletter_subscriptions where email = $1', [email])
    ).rows[0]!.id
    expect(await errorOf(m.advertiser.actor, 'select public.admin_refund_subscription($1, $2)', [subId, 'fraud'])).toBe(
      'Only an admin can do this',
    )
    expect(await one(actors.admin, 'select public.admin_refund_subscription($1, $2) as r', [subId, 'fraud'])).toEqual({
      subscription_id: subId,
      refunded: 10,
    })
    expect(await walletOf(m.advertiser.id)).toMatchObject({ balance: '100.00', held: '0.00', available: '100.00' })
    expect(await walletOf(m.publisher.id)).toMatchObject({ balance: '0.00', pending_earnings: '0.00' })
    const campaign = await db.query<{ budget_spent: string }>(
      'select budget_spent::text from public.campaigns where id = $1',
      [m.campaignId],
    )
    expect(campaign.rows[0]!.budget_spent).toBe('0.00')
    expect(await errorOf(service, 'select public.refund_subscription($1, $2)', [subId, 'again'])).toBe(
      'This subscriber was not charged',
    )
    expect(await errorOf(service, 'select public.refund_subscription($1, $2)', [randomUUID(), 'x'])).toBe(
      'Subscription not found',
    )

    const late = `l-${randomUUID()}@example.com`
    await counted(m, late)
    await db.query(
      `update public.wallet_transactions set available_at = now() - interval '1 minute'
      where subscription_id = (select id from public.newsletter_subscriptions where email = $1)`,
      [late],
    )
    await queryAs(service, 'select public.settle_matured_holds()')
    const lateId = (
      await db.query<{ id: string }>('select id from public.newsletter_subscriptions where email = $1', [late])
    ).rows[0]!.id
    expect(await errorOf(service, 'select public.refund_subscription($1, $2)', [lateId, 'too late'])).toBe(
      'The screening period is over; this subscriber can no longer be refunded',
    )
  })

  // Each subscription through a source reserves its price; one the campaign cannot promise is refused up front.
  async function reserveAndConfirm(m: Market, count: number) {
    const pending = []
    const refused = []
    for (let i = 0; i < count; i++) {
      const email = `b${i}-${randomUUID()}@example.com`
      try {
        pending.push({ email, token: (await subscribe(email, [m.campaignId], { sourceId: m.sourceId })).tokens[0]! })
        await ageSubscription(email)
      } catch (error) {
        refused.push((error as Error).message)
      }
    }
    const results = []
    for (const p of pending) results.push(await confirm(p.token, p.email))
    return { results, refused }
  }

  it('never promises a campaign past its budget, so every confirmed subscriber it accepted is paid', async () => {
    const m = await createMarket({ deposit: 1000, price: 10, budget: 25 })
    const { results, refused } = await reserveAndConfirm(m, 4)
    expect(refused).toEqual([
      'This newsletter is not accepting subscribers',
      'This newsletter is not accepting subscribers',
    ])
    expect(results.map((r) => [r.result, r.counted])).toEqual([
      ['confirmed', true],
      ['confirmed', true],
    ])
    const db = await testDb()
    const c = await db.query<{ budget_spent: string; budget_reserved: string; funding_status: string }>(
      'select budget_spent::text, budget_reserved::text, funding_status from public.campaigns where id = $1',
      [m.campaignId],
    )
    expect(c.rows[0]).toEqual({ budget_spent: '20.00', budget_reserved: '0.00', funding_status: 'budget_exhausted' })
  })

  it("never promises past the advertiser's available balance, holds and reservations included", async () => {
    const m = await createMarket({ deposit: 20, price: 8, budget: 1000 })
    const { results, refused } = await reserveAndConfirm(m, 3)
    expect(results.map((r) => r.counted)).toEqual([true, true])
    expect(refused).toEqual(['This newsletter is not accepting subscribers'])
    expect(await walletOf(m.advertiser.id)).toMatchObject({ balance: '20.00', held: '16.00', available: '4.00' })
  })

  it('stops showing a campaign that cannot pay one more subscriber, tells the advertiser why, and resumes on deposit', async () => {
    const m = await createMarket({ deposit: 10, price: 8, budget: 1000 })
    const visible = async () =>
      (await queryAs(anon, 'select id from public.campaigns where id = $1', [m.campaignId])).length === 1
    expect(await visible()).toBe(true)
    await reserveAndConfirm(m, 1)
    expect(await visible()).toBe(false)
    const own = await queryAs(m.advertiser.actor, 'select status, funding_status from public.campaigns where id = $1', [
      m.campaignId,
    ])
    expect(own).toEqual([{ status: 'active', funding_status: 'balance_exhausted' }])
    expect(
      await errorOf(service, 'select * from public.create_pending_subscriptions($1, $2::uuid[], $3::text[])', [
        `late-${randomUUID()}@example.com`,
        [m.campaignId],
        ['h'],
      ]),
    ).toBe('This newsletter is not accepting subscribers')
    // Browser code cannot mark it funded: the column is not the API's to write (and the trigger recomputes it).
    expect(
      await errorOf(m.advertiser.actor, "update public.campaigns set funding_status = 'funded' where id = $1", [
        m.campaignId,
      ]),
    ).toBe('permission denied for table campaigns')
    expect(await visible()).toBe(false)
    await queryAs(service, 'select public.credit_deposit($1, 50, $2)', [m.advertiser.id, `cs_${randomUUID()}`])
    expect(await visible()).toBe(true)
    await queryAs(service, "select public.settle_matured_holds(now() + interval '8 days')")
    expect(
      (
        await queryAs(m.advertiser.actor, 'select funding_status from public.campaigns where id = $1', [m.campaignId])
      )[0],
    ).toEqual({ funding_status: 'funded' })
  })

  it('charges nothing for an unattributed subscriber', async () => {
    const m = await createMarket({ deposit: 100, price: 10 })
    const email = `u-${randomUUID()}@example.com`
    const { tokens } = await subscribe(email, [m.campaignId])
    await ageSubscription(email)
    expect(await confirm(tokens[0]!, email)).toMatchObject({
      result: 'confirmed',
      counted: false,
      not_counted_reason: null,
    })
    expect(await walletOf(m.advertiser.id)).toMatchObject({ held: '0.00', balance: '100.00' })
  })
})

describe('concurrent confirmations', () => {
  it('charges exactly what was reserved while confirmations and deposits race', async () => {
    const m = await createMarket({ deposit: 1000, price: 10, budget: 50 })
    const pending = []
    let refused = 0
    for (let i = 0; i < 7; i++) {
      // Webmail: five paid readers of one source in a day, more than one company's domain brings (domain_velocity).
      const email = `race${i}-${randomUUID()}@gmail.com`
      try {
        pending.push({ email, token: (await subscribe(email, [m.campaignId], { sourceId: m.sourceId })).tokens[0]! })
        await ageSubscription(email)
      } catch {
        refused++
      }
    }
    expect([pending.length, refused]).toEqual([5, 2])
    const deposits = Array.from({ length: 4 }, () =>
      queryAs(service, 'select public.credit_deposit($1, 10, $2)', [m.advertiser.id, `cs_${randomUUID()}`]),
    )
    const results = await Promise.all([...pending.map((p) => confirm(p.token, p.email)), ...deposits])
    const confirmations = results.slice(0, pending.length) as Awaited<ReturnType<typeof confirm>>[]
    expect(confirmations.filter((r) => r.counted)).toHaveLength(5)
    expect(await walletOf(m.advertiser.id)).toMatchObject({ balance: '1040.00', held: '50.00' })
  })
})
