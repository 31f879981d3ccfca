// Payouts: publishers request available earnings (minimum 50); only an admin pays, re-checking the balance.
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { errorOf, queryAs, testDb } from './helpers/db'
import { actors, createUser, ledgerMismatches, payoutAccount } from './helpers/fixtures'
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
    await payoutAccount(p.id)
    const db = await testDb()
    await db.query('select private.post_ledger($1, 70, $2, $3, $4, $5)', [
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
    const pay = (actor: Parameters<typeof queryAs>[0], payoutId: string, reference: string | null) =>
      errorOf(actor, 'select public.admin_mark_payout_paid($1, $2)', [payoutId, reference])
    expect(await pay(p.actor, id, 'SEPA-1')).toBe('Only an admin can do this')
    expect(await pay(actors.admin, id, '  ')).toBe(
      'Enter the transfer reference of the payment (at least 3 characters)',
    )
    expect(await pay(actors.admin, id, null)).toBe(
      'Enter the transfer reference of the payment (at least 3 characters)',
    )
    expect(await pay(actors.admin, id, 'x'.repeat(201))).toBe('The transfer reference can be at most 200 characters')
    expect(
      await one(actors.admin, "select public.admin_mark_payout_paid($1, ' SEPA-2026-0042 ') as r", [id]),
    ).toMatchObject({
      status: 'paid',
      amount: 60,
      transfer_reference: 'SEPA-2026-0042',
    })
    expect((await walletOf(p.id)).balance).toBe('10.00')
    expect(await pay(actors.admin, id, 'SEPA-2')).toBe('This payout was already handled')
    expect(await pay(actors.admin, randomUUID(), 'SEPA-3')).toBe('Payout request not found')
    // The publisher sees it paid with the reference, in the ledger too; the audit log and an email say so.
    expect(
      await queryAs(
        p.actor,
        'select status, transfer_reference, paid_at is not null as paid from public.payout_requests where id = $1',
        [id],
      ),
    ).toEqual([{ status: 'paid', transfer_reference: 'SEPA-2026-0042', paid: true }])
    expect(
      await queryAs(p.actor, "select amount::text, description from public.wallet_transactions where type = 'payout'"),
    ).toEqual([{ amount: '-60.00', description: 'Payout (transfer SEPA-2026-0042)' }])
    expect(
      await queryAs(actors.admin, 'select reason from public.moderation_events where subject_id = $1', [id]),
    ).toEqual([{ reason: 'Transfer reference SEPA-2026-0042' }])
    const emails = await db.query('select template, data from public.notification_queue where user_id = $1', [p.id])
    expect(emails.rows).toEqual([
      { template: 'payout_paid', data: expect.objectContaining({ amount: 60, reference: 'SEPA-2026-0042' }) },
    ])
    // The reference of a paid payout never changes.
    await expect(
      db.query("update public.payout_requests set transfer_reference = 'other' where id = $1", [id]),
    ).rejects.toThrow('transfer_reference cannot be changed')
  })

  it('re-checks the balance when paying', async () => {
    const p = await createUser('publisher')
    const db = await testDb()
    const r = await db.query<{ id: string }>(
      `insert into public.payout_requests (publisher_id, amount) values ($1, 50) returning id`,
      [p.id],
    )
    expect(await errorOf(actors.admin, "select public.admin_mark_payout_paid($1, 'SEPA-9')", [r.rows[0]!.id])).toBe(
      "The publisher's available balance no longer covers this payout",
    )
  })

  it("shows the publisher's own pending, available, requested and paid earnings from the database", async () => {
    const p = await createUser('publisher')
    await payoutAccount(p.id)
    const db = await testDb()
    await db.query('select private.post_ledger($1, 120, $2, $3, $4, $5)', [
      p.id,
      'earning',
      'completed',
      'Test',
      `e-${p.id}`,
    ])
    await db.query(
      "select private.post_ledger($1, 8, 'earning', 'pending', 'Test', $2, null, null, now() + interval '7 days')",
      [p.id, `ep-${p.id}`],
    )
    const balance = () =>
      queryAs(
        p.actor,
        'select pending::text, available::text, requested::text, paid::text from public.publisher_balance()',
      )
    expect(await balance()).toEqual([{ pending: '8.00', available: '120.00', requested: '0.00', paid: '0.00' }])
    const created = await one(p.actor, 'select public.request_payout(50) as r')
    expect(await balance()).toEqual([{ pending: '8.00', available: '70.00', requested: '50.00', paid: '0.00' }])
    await one(actors.admin, "select public.admin_mark_payout_paid($1, 'WIRE-77') as r", [created.id])
    expect(await balance()).toEqual([{ pending: '8.00', available: '70.00', requested: '0.00', paid: '50.00' }])
    // What the screen shows is what request_payout accepts: exactly the available amount, not a cent more.
    expect(await errorOf(p.actor, 'select public.request_payout(70.01)')).toMatch(
      /^You can only withdraw available earnings/,
    )
    expect(await errorOf(p.actor, 'select public.request_payout(70)')).toBe('')
  })
})
