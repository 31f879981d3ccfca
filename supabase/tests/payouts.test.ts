// Payouts: publishers request available earnings (minimum 50); only an admin pays, re-checking the balance.
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { errorOf, queryAs, testDb } from './helpers/db'
import { actors, createUser, ledgerMismatches } from './helpers/fixtures'
import { walletOf } from './helpers/market'

afterEach(async () => {
  expect(await ledgerMismatches()).toEqual([])
})

type Json = Record<string, unknown>
const one = async (actor: Parameters<typeof queryAs>[0], sql: string, params: unknown[] = []) =>
  (await queryAs<{ r: Json }>(actor, sql, params))[0]!.r

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
    expect(await request(70.01)).toBe('You can only withdraw available earnings (70.00 credits available)')
    expect(await request(50.001)).toBe('Use at most two decimals')
    const created = await one(p.actor, 'select public.request_payout(60) as r')
    expect(created).toMatchObject({ amount: 60, status: 'requested' })
    // Requested money is no longer available: publisher_balance() and request_payout agree.
    expect(await request(50)).toBe('You can only withdraw available earnings (10.00 credits available)')
    expect(await queryAs(p.actor, 'select * from public.publisher_balance()')).toEqual([
      { pending: '0.00', available: '10.00', requested: '60.00', paid: '0.00' },
    ])

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
