// Deposits: a checkout session is recorded pending, credited exactly once however the webhook replays,
// reorders or races it, closes as failed or expired only while pending, and the balance equals the
// ledger after every case.
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { anon, errorOf, queryAs, service, testDb } from './helpers/db'
import { actors, createUser, ledgerMismatches, type NewUser } from './helpers/fixtures'
import { createMarket, walletOf } from './helpers/market'

afterEach(async () => {
  expect(await ledgerMismatches()).toEqual([])
})

type Json = Record<string, unknown>
const one = async (sql: string, params: unknown[] = []) => (await queryAs<{ r: Json }>(service, sql, params))[0]!.r

const session = () => `cs_test_${randomUUID().replace(/-/g, '')}`
const open = (userId: string, amount: number | string, id = session()) =>
  one('select public.open_deposit($1, $2, $3, now() + interval $$1 hour$$) as r', [userId, amount, id])
const complete = (id: string, userId: string | null, amount: number | string) =>
  one('select public.complete_deposit($1, $2, $3, $4) as r', [id, userId, amount, 'pi_test_1'])
const close = (id: string, status: string, reason: string | null = null) =>
  one('select public.close_deposit($1, $2::public.deposit_status, $3) as r', [id, status, reason])

async function depositOf(id: string) {
  const db = await testDb()
  const r = await db.query<{
    status: string
    amount: string
    transaction_id: string | null
    failure_reason: string | null
  }>('select status, amount::text, transaction_id, failure_reason from public.deposits where stripe_session_id = $1', [
    id,
  ])
  return r.rows[0]
}

async function ledgerRows(userId: string) {
  const db = await testDb()
  const r = await db.query<{ amount: string; reference: string }>(
    `select amount::text, reference from public.wallet_transactions where user_id = $1 and type = 'deposit'`,
    [userId],
  )
  return r.rows
}

async function advertiserWithSession(amount = 25): Promise<{ u: NewUser; id: string }> {
  const u = await createUser('advertiser')
  const id = session()
  await open(u.id, amount, id)
  return { u, id }
}

describe('open_deposit', () => {
  it('records a pending deposit the advertiser can read, and nobody else but admins', async () => {
    const { u, id } = await advertiserWithSession(25)
    expect(await depositOf(id)).toEqual({
      status: 'pending',
      amount: '25.00',
      transaction_id: null,
      failure_reason: null,
    })
    expect(await queryAs(u.actor, 'select amount::text, status from public.deposits')).toEqual([
      { amount: '25.00', status: 'pending' },
    ])
    expect(
      await queryAs(actors.otherAdvertiser, 'select 1 from public.deposits where stripe_session_id = $1', [id]),
    ).toEqual([])
    expect(
      await queryAs(actors.admin, 'select 1 as n from public.deposits where stripe_session_id = $1', [id]),
    ).toEqual([{ n: 1 }])
    expect((await walletOf(u.id)).balance).toBe('0.00')
  })

  it('answers a retried call with the same deposit and refuses the session for other terms', async () => {
    const u = await createUser('advertiser')
    const id = session()
    const first = await open(u.id, 40, id)
    expect(await open(u.id, 40, id)).toEqual(first)
    expect(await errorOf(service, 'select public.open_deposit($1, 41, $2)', [u.id, id])).toBe(
      'This payment reference belongs to another deposit',
    )
  })

  it('refuses amounts outside 10–10,000, more than two decimals, publishers, unknown users and no reference', async () => {
    const u = await createUser('advertiser')
    const p = await createUser('publisher')
    const attempt = (userId: string, amount: unknown, id: string | null = session()) =>
      errorOf(service, 'select public.open_deposit($1, $2, $3)', [userId, amount, id])
    expect(await attempt(u.id, 9.99)).toBe('Deposits must be between 10 and 10,000 credits')
    expect(await attempt(u.id, -25)).toBe('Deposits must be between 10 and 10,000 credits')
    expect(await attempt(u.id, 10000.01)).toBe('Deposits must be between 10 and 10,000 credits')
    expect(await attempt(u.id, null)).toBe('Deposits must be between 10 and 10,000 credits')
    expect(await attempt(u.id, '25.505')).toBe('Deposits can have at most two decimals')
    expect(await attempt(u.id, 25, ' ')).toBe('A payment reference is required')
    expect(await attempt(p.id, 25)).toBe('Only advertisers can add funds to a wallet')
    expect(await attempt(randomUUID(), 25)).toBe('User not found')
    expect(await queryAs(service, 'select 1 from public.deposits where user_id in ($1, $2)', [u.id, p.id])).toEqual([])
  })

  it('is the service role’s alone, like every deposit function', async () => {
    const u = await createUser('advertiser')
    for (const sql of [
      'select public.open_deposit($1::uuid, 25, $2::text)',
      'select public.complete_deposit($2::text, $1::uuid, 25)',
      "select public.close_deposit($2::text, 'expired') where $1::uuid is not null",
    ]) {
      expect(await errorOf(u.actor, sql, [u.id, session()])).toMatch(/permission denied/)
      expect(await errorOf(anon, sql, [u.id, session()])).toMatch(/permission denied/)
    }
  })
})

describe('complete_deposit', () => {
  it('credits a paid session once, and replays three times answer already_credited', async () => {
    const { u, id } = await advertiserWithSession(25)
    const first = await complete(id, u.id, 25)
    expect(first).toMatchObject({ result: 'credited', user_id: u.id, amount: 25, balance: 25 })
    for (let i = 0; i < 3; i++) {
      expect(await complete(id, u.id, 25)).toMatchObject({
        result: 'already_credited',
        transaction_id: first.transaction_id,
      })
    }
    expect(await depositOf(id)).toMatchObject({ status: 'completed', transaction_id: first.transaction_id })
    expect(await ledgerRows(u.id)).toEqual([{ amount: '25.00', reference: id }])
    expect((await walletOf(u.id)).balance).toBe('25.00')
  })

  it('queues one receipt for a credited session whatever the replays, and none for a credit made outside the checkout', async () => {
    const { u, id } = await advertiserWithSession(25)
    await complete(id, u.id, 25)
    await complete(id, u.id, 25)
    await (await testDb()).query('select public.credit_deposit($1, 40, $2)', [u.id, `support-${randomUUID()}`])
    const queued = await queryAs(service, `select template, data from public.notification_queue where user_id = $1`, [
      u.id,
    ])
    expect(queued).toEqual([{ template: 'deposit_receipt', data: { amount: 25, reference: id, balance: 25 } }])
  })

  it('credits once under 10 concurrent deliveries of the same event', async () => {
    const { u, id } = await advertiserWithSession(30.5)
    const results = await Promise.all(Array.from({ length: 10 }, () => complete(id, u.id, 30.5)))
    expect(results.filter((r) => r.result === 'credited')).toHaveLength(1)
    expect(results.filter((r) => r.result === 'already_credited')).toHaveLength(9)
    expect(await ledgerRows(u.id)).toEqual([{ amount: '30.50', reference: id }])
  })

  it('credits nothing for an unknown session, another user or another amount, and writes nothing', async () => {
    const { u, id } = await advertiserWithSession(25)
    const other = await createUser('advertiser')
    expect(await complete(session(), u.id, 25)).toEqual({ result: 'unknown_session' })
    expect(await complete(id, other.id, 25)).toMatchObject({ result: 'user_mismatch' })
    expect(await complete(id, null, 25)).toMatchObject({ result: 'user_mismatch' })
    expect(await complete(id, u.id, 2500)).toMatchObject({ result: 'amount_mismatch' })
    expect(await depositOf(id)).toMatchObject({ status: 'pending', transaction_id: null })
    expect(await ledgerRows(u.id)).toEqual([])
    expect(await ledgerRows(other.id)).toEqual([])
  })
})

describe('a campaign short of money', () => {
  it('is shown to subscribers again once a deposit lands', async () => {
    const m = await createMarket({ deposit: 0, price: 5, budget: 100 })
    const db = await testDb()
    const funding = async () =>
      (await db.query<{ f: string }>('select funding_status as f from public.campaigns where id = $1', [m.campaignId]))
        .rows[0]!.f
    expect(await funding()).toBe('balance_exhausted')
    const id = session()
    await open(m.advertiser.id, 25, id)
    expect(await funding()).toBe('balance_exhausted')
    await complete(id, m.advertiser.id, 25)
    expect(await funding()).toBe('funded')
  })
})

describe('close_deposit', () => {
  it('expires or fails a pending deposit, and a reordered expiry never undoes a credit', async () => {
    const a = await advertiserWithSession(25)
    expect(await close(a.id, 'expired')).toMatchObject({ result: 'closed', status: 'expired' })
    expect(await depositOf(a.id)).toMatchObject({ status: 'expired' })

    const b = await advertiserWithSession(25)
    expect(await close(b.id, 'failed', 'The bank declined the transfer.')).toMatchObject({ result: 'closed' })
    expect(await depositOf(b.id)).toMatchObject({ status: 'failed', failure_reason: 'The bank declined the transfer.' })

    const c = await advertiserWithSession(25)
    await complete(c.id, c.u.id, 25)
    expect(await close(c.id, 'expired')).toMatchObject({ result: 'unchanged', status: 'completed' })
    expect(await depositOf(c.id)).toMatchObject({ status: 'completed' })
    expect((await walletOf(c.u.id)).balance).toBe('25.00')

    expect(await close(session(), 'expired')).toEqual({ result: 'unknown_session' })
  })

  it('still credits a closed deposit that Stripe later reports paid: the money was taken', async () => {
    const { u, id } = await advertiserWithSession(12)
    await close(id, 'expired')
    expect(await complete(id, u.id, 12)).toMatchObject({ result: 'credited' })
    expect(await depositOf(id)).toMatchObject({ status: 'completed', failure_reason: null })
  })

  it('closes only as failed or expired', async () => {
    const { id } = await advertiserWithSession(25)
    expect(await errorOf(service, "select public.close_deposit($1, 'completed')", [id])).toBe(
      'A deposit can only be closed as failed or expired',
    )
  })
})

describe('deposits table', () => {
  it('keeps owner, amount and reference, and a completed deposit keeps its ledger row', async () => {
    const { u, id } = await advertiserWithSession(25)
    await complete(id, u.id, 25)
    const change = (set: string) =>
      errorOf(service, `update public.deposits set ${set} where stripe_session_id = $1`, [id])
    expect(await change('amount = 2500')).toBe('amount cannot be changed')
    expect(await change('stripe_session_id = $$cs_other$$')).toBe('stripe_session_id cannot be changed')
    expect(await change('transaction_id = null')).toMatch(/deposits_completed_has_transaction/)
  })

  it('lists the demo deposits credited by the seed with their reference', async () => {
    const rows = await queryAs(
      actors.advertiser,
      `select status, amount::text, stripe_session_id from public.deposits where stripe_session_id like 'seed-%'`,
    )
    expect(rows).toEqual([{ status: 'completed', amount: '500.00', stripe_session_id: 'seed-deposit-ada-1' }])
  })
})
