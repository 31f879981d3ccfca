// Money: the wallet is a ledger (balance = sum of completed rows after every test), the bonus is paid
// once whatever the concurrency, a deposit reference credits once, holds settle after screening and
// are refunded during it, and a campaign never spends past its budget or its advertiser's balance.
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { anon, errorOf, queryAs, service, testDb } from './helpers/db'
import { actors, createUser, ids, ledgerMismatches } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe, walletOf, type Market } from './helpers/market'

afterEach(async () => {
  expect(await ledgerMismatches()).toEqual([])
})

type Json = Record<string, unknown>
const one = async (actor: Parameters<typeof queryAs>[0], sql: string, params: unknown[] = []) =>
  (await queryAs<{ r: Json }>(actor, sql, params))[0]!.r

describe('wallet creation', () => {
  it("opens the caller's own wallet at 0 and refuses anyone else's", async () => {
    const u = await createUser('advertiser')
    expect(await one(u.actor, 'select public.ensure_wallet_exists($1) as r', [u.id])).toMatchObject({
      user_id: u.id,
      balance: 0,
    })
    expect(await errorOf(u.actor, 'select public.ensure_wallet_exists($1)', [ids.advertiser])).toBe(
      'You can only open your own wallet',
    )
    expect(await errorOf(anon, 'select public.ensure_wallet_exists($1)', [u.id])).toMatch(/permission denied/)
  })
})

describe('signup bonus', () => {
  it('pays 10 credits once to an advertiser at balance 0, with an "Initial bonus" ledger row', async () => {
    const u = await createUser('advertiser')
    expect(await one(u.actor, 'select public.claim_signup_bonus() as r')).toEqual({ paid: true, balance: 10 })
    expect(await one(u.actor, 'select public.claim_signup_bonus() as r')).toEqual({ paid: false, balance: 10 })
    const rows = await queryAs(
      u.actor,
      `select type, status, description, amount::text from public.wallet_transactions`,
    )
    expect(rows).toEqual([{ type: 'bonus', status: 'completed', description: 'Initial bonus', amount: '10.00' }])
  })

  it('pays the bonus exactly once under 50 concurrent calls', async () => {
    const u = await createUser('advertiser')
    const results = await Promise.all(
      Array.from({ length: 50 }, () => one(u.actor, 'select public.claim_signup_bonus() as r')),
    )
    expect(results.filter((r) => r.paid === true)).toHaveLength(1)
    const db = await testDb()
    const count = await db.query<{ n: number }>(
      `select count(*)::int as n from public.wallet_transactions where user_id = $1 and type = 'bonus'`,
      [u.id],
    )
    expect(count.rows[0]!.n).toBe(1)
    expect((await walletOf(u.id)).balance).toBe('10.00')
  })

  it('pays nothing to a publisher or to an advertiser who already has money, and needs a session', async () => {
    const p = await createUser('publisher')
    expect(await one(p.actor, 'select public.claim_signup_bonus() as r')).toEqual({ paid: false, balance: 0 })
    const a = await createUser('advertiser')
    await (await testDb()).query('select public.credit_deposit($1, 20, $2)', [a.id, `test-${randomUUID()}`])
    expect(await one(a.actor, 'select public.claim_signup_bonus() as r')).toEqual({ paid: false, balance: 20 })
    expect(await errorOf(anon, 'select public.claim_signup_bonus()')).toMatch(/permission denied/)
    expect(await errorOf(service, 'select public.claim_signup_bonus()')).toBe('Sign in to claim the bonus')
  })
})

describe('credits and deposits', () => {
  it('lets only the service role credit a wallet directly', async () => {
    const u = await createUser('advertiser')
    expect(await errorOf(u.actor, 'select public.increment_wallet_balance($1, 100)', [u.id])).toMatch(
      /permission denied/,
    )
    expect(await errorOf(anon, 'select public.increment_wallet_balance($1, 100)', [u.id])).toMatch(/permission denied/)
    expect(await errorOf(service, 'select public.increment_wallet_balance($1, 0)', [u.id])).toBe(
      'Amount must be positive',
    )
    expect(await one(service, 'select public.increment_wallet_balance($1, 5) as r', [u.id])).toMatchObject({
      balance: 5,
    })
  })

  it('credits a deposit reference once, however often the webhook replays it', async () => {
    const u = await createUser('advertiser')
    const reference = `cs_test_${randomUUID()}`
    const call = () => one(service, 'select public.credit_deposit($1, 125.50, $2) as r', [u.id, reference])
    const results = [...(await Promise.all(Array.from({ length: 10 }, call))), await call(), await call()]
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1)
    expect((await walletOf(u.id)).balance).toBe('125.50')
  })

  it('refuses deposits outside 10–10,000, without a reference, or replayed with different terms', async () => {
    const u = await createUser('advertiser')
    const deposit = (amount: number, reference: string) =>
      errorOf(service, 'select public.credit_deposit($1, $2, $3)', [u.id, amount, reference])
    expect(await deposit(9.99, 'r1')).toBe('Deposits must be between 10 and 10,000 credits')
    expect(await deposit(10000.01, 'r1')).toBe('Deposits must be between 10 and 10,000 credits')
    expect(await deposit(50, ' ')).toBe('A payment reference is required')
    const reference = `cs_test_${randomUUID()}`
    expect(await deposit(50, reference)).toBe('')
    expect(await deposit(60, reference)).toBe('This payment was already credited differently')
    expect(
      await errorOf(service, 'select public.credit_deposit($1, 50, $2)', [randomUUID(), `x-${randomUUID()}`]),
    ).toBe('User not found')
    expect(await errorOf(u.actor, 'select public.credit_deposit($1, 50, $2)', [u.id, `x-${randomUUID()}`])).toMatch(
      /permission denied/,
    )
  })
})

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

    expect(await one(service, `select public.settle_matured_holds(now() + interval '6 days') as r`)).toBe(0)
    const settled = await one(service, `select public.settle_matured_holds(now() + interval '7 days 1 minute') as r`)
    expect(settled).toBeGreaterThanOrEqual(2)
    expect(await walletOf(m.advertiser.id)).toMatchObject({ balance: '90.00', held: '0.00', available: '90.00' })
    expect(await walletOf(m.publisher.id)).toMatchObject({ balance: '8.00', pending_earnings: '0.00' })
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

  // Subscribers who were sent a link while the campaign could still pay may confirm after it no longer can.
  async function pendingThenConfirmed(m: Market, count: number) {
    const pending = []
    for (let i = 0; i < count; i++) {
      const email = `b${i}-${randomUUID()}@example.com`
      pending.push({ email, token: (await subscribe(email, [m.campaignId], { sourceId: m.sourceId })).tokens[0]! })
      await ageSubscription(email)
    }
    const results = []
    for (const p of pending) results.push(await confirm(p.token, p.email))
    return results
  }

  it('never charges a campaign past its budget', async () => {
    const m = await createMarket({ deposit: 1000, price: 10, budget: 25 })
    const results = await pendingThenConfirmed(m, 4)
    expect(results.map((r) => r.not_counted_reason)).toEqual([null, null, 'budget_exhausted', 'budget_exhausted'])
    expect(results.every((r) => r.result === 'confirmed')).toBe(true)
    const db = await testDb()
    const c = await db.query<{ budget_spent: string; funding_status: string }>(
      'select budget_spent::text, funding_status from public.campaigns where id = $1',
      [m.campaignId],
    )
    expect(c.rows[0]).toEqual({ budget_spent: '20.00', funding_status: 'budget_exhausted' })
  })

  it("never charges past the advertiser's available balance, holds included", async () => {
    const m = await createMarket({ deposit: 20, price: 8, budget: 1000 })
    const results = await pendingThenConfirmed(m, 3)
    expect(results.map((r) => r.counted)).toEqual([true, true, false])
    expect(results[2]!.not_counted_reason).toBe('budget_exhausted')
    expect(await walletOf(m.advertiser.id)).toMatchObject({ balance: '20.00', held: '16.00', available: '4.00' })
  })

  it('stops showing a campaign that cannot pay one more subscriber, tells the advertiser why, and resumes on deposit', async () => {
    const m = await createMarket({ deposit: 10, price: 8, budget: 1000 })
    const visible = async () =>
      (await queryAs(anon, 'select id from public.campaigns where id = $1', [m.campaignId])).length === 1
    expect(await visible()).toBe(true)
    await pendingThenConfirmed(m, 1)
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
    // Browser code cannot mark it funded: the trigger recomputes the status on every write.
    await queryAs(m.advertiser.actor, "update public.campaigns set funding_status = 'funded' where id = $1", [
      m.campaignId,
    ])
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

describe('payouts', () => {
  it('lets a publisher request available earnings (minimum 50) and an admin pay them once', async () => {
    const p = await createUser('publisher')
    const db = await testDb()
    await db.query('select public.post_ledger($1, 70, $2, $3, $4, $5)', [
      p.id,
      'earning',
      'completed',
      'Test',
      `e-${p.id}`,
    ])
    const request = (amount: number) => errorOf(p.actor, 'select public.request_payout($1)', [amount])
    expect(await errorOf(actors.advertiser, 'select public.request_payout(60)')).toBe(
      'Only publishers can request payouts',
    )
    expect(await request(49.99)).toBe('The minimum payout is 50 credits')
    expect(await request(70.01)).toBe('You can only withdraw available earnings')
    const created = await one(p.actor, 'select public.request_payout(60) as r')
    expect(created).toMatchObject({ amount: 60, status: 'requested' })
    expect(await request(50)).toBe('You can only withdraw available earnings')

    const id = created.id as string
    expect(await errorOf(p.actor, 'select public.admin_mark_payout_paid($1)', [id])).toBe('Only an admin can do this')
    expect(await one(actors.admin, 'select public.admin_mark_payout_paid($1) as r', [id])).toMatchObject({
      status: 'paid',
    })
    expect((await walletOf(p.id)).balance).toBe('10.00')
    expect(await errorOf(actors.admin, 'select public.admin_mark_payout_paid($1)', [id])).toBe(
      'This payout was already handled',
    )
    expect(await errorOf(actors.admin, 'select public.admin_mark_payout_paid($1)', [randomUUID()])).toBe(
      'Payout request not found',
    )
  })

  it('re-checks the balance when paying', async () => {
    const p = await createUser('publisher')
    const db = await testDb()
    const r = await db.query<{ id: string }>(
      `insert into public.payout_requests (publisher_id, amount) values ($1, 50) returning id`,
      [p.id],
    )
    expect(await errorOf(actors.admin, 'select public.admin_mark_payout_paid($1)', [r.rows[0]!.id])).toBe(
      "The publisher's available balance no longer covers this payout",
    )
  })
})
