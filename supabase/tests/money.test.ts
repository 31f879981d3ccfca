// Money: the wallet is a ledger (balance = sum of completed rows after every test), the bonus is paid
// once whatever the concurrency, a deposit reference credits once, holds settle after screening and
// are refunded during it, and a campaign never spends past its budget or its advertiser's balance.
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { anon, errorOf, queryAs, service, testDb } from './helpers/db'
import { createUser, ids, ledgerMismatches } from './helpers/fixtures'
import { walletOf } from './helpers/market'

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

describe('ledger rows', () => {
  it('never change owner, amount, type or reference, even for the service role', async () => {
    const db = await testDb()
    const [row] = (
      await db.query<{ id: string }>(`select id from public.wallet_transactions where reference = $1`, [
        `signup-bonus:${ids.advertiser}`,
      ])
    ).rows
    const change = (set: string) =>
      errorOf(service, `update public.wallet_transactions set ${set} where id = $1`, [row!.id])
    expect(await change('amount = 1000')).toBe('amount cannot be changed')
    expect(await change(`user_id = '${ids.otherAdvertiser}'`)).toBe('user_id cannot be changed')
    expect(await change(`type = 'deposit'`)).toBe('type cannot be changed')
    expect(await change(`reference = 'x'`)).toBe('reference cannot be changed')
    const wallet = await errorOf(service, `update public.wallet_balances set user_id = $2 where user_id = $1`, [
      ids.advertiser,
      ids.otherAdvertiser,
    ])
    expect(wallet).toBe('user_id cannot be changed')
  })
})
