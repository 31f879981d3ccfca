// The wallet as a bank statement (wallet_statement): one row per charge whose status moves from on hold to
// charged or refunded (with the amount given back), never a cancelled hold beside its debit, never a 0.00
// release; the balance parts add up; checkouts close when cancelled or past their expiry.
import { randomUUID } from 'node:crypto'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../embedded-backend/db/database'
import { anon, errorOf, queryAs, service, testDb } from './helpers/db'
import { ledgerMismatches } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe, type Market } from './helpers/market'

let db: Db
beforeAll(async () => {
  db = await testDb()
})
afterEach(async () => {
  expect(await ledgerMismatches()).toEqual([])
})

type Row = { kind: string; status: string; description: string; amount: string; refunded: string; total_count: string }
const statement = (m: Market, limit = 20, offset = 0) =>
  queryAs<Row>(
    m.advertiser.actor,
    'select kind, status, description, amount::text, refunded::text, total_count::text from public.wallet_statement($1, $2)',
    [limit, offset],
  )

async function charged(m: Market) {
  const email = `statement-${randomUUID()}@example.com`
  const { tokens } = await subscribe(email, [m.campaignId], { sourceId: m.sourceId })
  await ageSubscription(email)
  expect(await confirm(tokens[0]!, email)).toMatchObject({ counted: true })
  return (await db.query<{ id: string }>('select id from public.newsletter_subscriptions where email = $1', [email]))
    .rows[0]!.id
}

describe('wallet_statement', () => {
  it('shows one row per charge: on hold, then charged after screening, or refunded with its amount', async () => {
    const m = await createMarket({ deposit: 100, price: 30, budget: 200 })
    const settled = await charged(m)
    const refunded = await charged(m)
    await charged(m) // stays on hold
    await db.query(
      "update public.wallet_transactions set available_at = now() - interval '1 minute' where subscription_id = $1",
      [settled],
    )
    await db.query('select public.settle_matured_holds()')
    await queryAs(service, 'select public.refund_subscription($1, $2)', [refunded, 'fraud'])

    const rows = await statement(m)
    expect(rows.map((r) => [r.kind, r.status, r.amount, r.refunded]).sort()).toEqual(
      [
        ['charge', 'charged', '-30.00', '0.00'],
        ['charge', 'on_hold', '-30.00', '0.00'],
        ['charge', 'refunded', '-30.00', '30.00'],
        ['deposit', 'completed', '100.00', '0.00'],
      ].sort(),
    )
    // The ledger underneath has a cancelled hold and a debit for the charge, and a 0.00 release for the refund:
    // none of them is a row of its own on the statement.
    expect(rows.some((r) => r.kind === 'debit' || r.kind === 'release' || r.kind === 'hold')).toBe(false)
    expect(rows.every((r) => r.total_count === '4')).toBe(true)
    const charge = rows.find((r) => r.status === 'charged')!
    expect(charge.description).toBe('Subscriber to Test newsletter')
    expect(rows.find((r) => r.status === 'refunded')!.description).toBe(
      'Subscriber to Test newsletter — refunded: fraud',
    )

    // The parts of the balance add up: available + reserved + on hold = balance.
    const [parts] = await queryAs<{ available: string; reserved: string; on_hold: string; balance: string }>(
      m.advertiser.actor,
      'select available::text, reserved::text, on_hold::text, balance::text from public.advertiser_balance()',
    )
    expect(parts).toEqual({ available: '40.00', reserved: '0.00', on_hold: '30.00', balance: '70.00' })
    // A pending subscription reserves its price: it moves from available to reserved, the balance stays.
    await subscribe(`reserved-${randomUUID()}@example.com`, [m.campaignId], { sourceId: m.sourceId })
    const [after] = await queryAs<{ available: string; reserved: string; on_hold: string; balance: string }>(
      m.advertiser.actor,
      'select available::text, reserved::text, on_hold::text, balance::text from public.advertiser_balance()',
    )
    expect(after).toEqual({ available: '10.00', reserved: '30.00', on_hold: '30.00', balance: '70.00' })
  })

  it('pages newest first, refuses a bad page, and shows only the caller’s own rows', async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    await charged(m)
    await charged(m)
    const first = await statement(m, 2, 0)
    const second = await statement(m, 2, 2)
    expect(first.map((r) => r.kind)).toEqual(['charge', 'charge'])
    expect(second.map((r) => r.kind)).toEqual(['deposit'])
    expect(await errorOf(m.advertiser.actor, 'select * from public.wallet_statement(0)')).toBe(
      'Ask for 1 to 10,000 rows at a time',
    )
    expect(await errorOf(m.advertiser.actor, 'select * from public.wallet_statement(10, -1)')).toBe(
      'The page cannot be before the first',
    )
    // The publisher of the same subscribers reads their own earnings, never the advertiser's charges.
    expect(
      (await queryAs<Row>(m.publisher.actor, 'select kind, status from public.wallet_statement()')).map((r) => [
        r.kind,
        r.status,
      ]),
    ).toEqual([
      ['earning', 'pending'],
      ['earning', 'pending'],
    ])
    expect(await errorOf(anon, 'select * from public.wallet_statement()')).toMatch(/permission denied/)
  })
})

describe('checkouts that close', () => {
  const openDeposit = async (m: Market, expires = "now() + interval '1 hour'") => {
    const id = `cs_test_${randomUUID().replace(/-/g, '')}`
    await db.query(`select public.open_deposit($1, 25, $2, ${expires})`, [m.advertiser.id, id])
    return id
  }
  const statusOf = async (id: string) =>
    (await db.query<{ status: string }>('select status::text from public.deposits where stripe_session_id = $1', [id]))
      .rows[0]!.status

  it('the advertiser cancels their own open checkout; nobody else can; a later payment is still credited', async () => {
    const m = await createMarket()
    const other = await createMarket()
    const id = await openDeposit(m)
    expect(await errorOf(other.advertiser.actor, 'select public.cancel_deposit($1)', [id])).toBe('Deposit not found')
    expect(await queryAs(m.advertiser.actor, 'select public.cancel_deposit($1) as r', [id])).toMatchObject([
      { r: { status: 'canceled' } },
    ])
    expect(await statusOf(id)).toBe('canceled')
    // Stripe says it was paid after all: the money was taken, so it is credited.
    await db.query('select public.complete_deposit($1, $2, 25)', [id, m.advertiser.id])
    expect(await statusOf(id)).toBe('completed')
    expect(await queryAs(m.advertiser.actor, 'select public.cancel_deposit($1) as r', [id])).toMatchObject([
      { r: { status: 'completed' } },
    ])
  })

  it('a pending deposit older than its checkout’s expiry is expired by the scheduled job', async () => {
    const m = await createMarket()
    const open = await openDeposit(m)
    const stale = await openDeposit(m, "now() - interval '1 minute'")
    expect(
      (await db.query<{ n: number }>('select public.expire_stale_deposits() as n')).rows[0]!.n,
    ).toBeGreaterThanOrEqual(1)
    expect(await statusOf(stale)).toBe('expired')
    expect(await statusOf(open)).toBe('pending')
    expect((await db.query("select 1 from cron.job where jobname = 'expire-stale-deposits'")).rows).toHaveLength(1)
    expect(await errorOf(m.advertiser.actor, 'select public.expire_stale_deposits()')).toMatch(/permission denied/)
  })
})
