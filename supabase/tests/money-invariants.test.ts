// The money invariants of the soak bench (bench/money-invariants.ts, issue 28): every query runs on both engines,
// and each one catches the corruption it is about. Each case breaks the seeded money in a transaction that is
// rolled back (triggers off, as a bug in a money function or a hand edit would leave it), so nothing it does is
// seen by the next case or the next file.
import { describe, expect, it } from 'vitest'
import { checkMoneyInvariants, INVARIANTS } from '../../bench/money-invariants'
import { testDb } from './helpers/db'
import { ids } from './helpers/fixtures'

class Rollback extends Error {}

/** The rows invariant `index` reports after `corrupt` ran, inside a transaction that is then rolled back. */
async function afterCorruption(index: number, corrupt: string[]): Promise<Record<string, unknown>[]> {
  const db = await testDb()
  let rows: Record<string, unknown>[] = []
  await db
    .transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica')
      for (const statement of corrupt) await tx.query(statement)
      rows = (await tx.query<Record<string, unknown>>(INVARIANTS[index]!.sql)).rows
      throw new Rollback()
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error
    })
  return rows
}

/** The rows invariant `index` reports now. */
async function now(index: number) {
  return (await (await testDb()).query<Record<string, unknown>>(INVARIANTS[index]!.sql)).rows
}

const PAID_PAYOUT = `(select id from public.payout_requests where status = 'paid' order by created_at limit 1)`
const COMPLETED_DEPOSIT = `(select stripe_session_id from public.deposits where status = 'completed' order by created_at limit 1)`
const COUNTED_SUBSCRIPTION = `(select subscription_id from public.wallet_transactions where type = 'debit' and subscription_id is not null order by created_at limit 1)`

describe('money invariants', () => {
  it('lists at least 8 invariants, each a query both engines run', async () => {
    expect(INVARIANTS.length).toBeGreaterThanOrEqual(8)
    expect(new Set(INVARIANTS.map((i) => i.name)).size).toBe(INVARIANTS.length)
    const results = await checkMoneyInvariants(await testDb())
    expect(results.map((r) => r.name)).toEqual(INVARIANTS.map((i) => i.name))
  })

  // [invariant, how a bug would break it, what the report must name]
  const cases: [number, string, string[], (rows: Record<string, unknown>[]) => boolean][] = [
    [
      0,
      'a balance changed without a ledger row',
      [`update public.wallet_balances set balance = balance + 1 where user_id = '${ids.advertiser}'`],
      (rows) => rows.some((r) => r.user_id === ids.advertiser),
    ],
    [
      1,
      'ledger rows of a user without a wallet',
      [`delete from public.wallet_balances where user_id = '${ids.advertiser}'`],
      (rows) => rows.some((r) => r.user_id === ids.advertiser),
    ],
    [
      2,
      'a checkout session credited a second time',
      [
        `insert into public.wallet_transactions (user_id, amount, type, status, reference)
       select user_id, amount, 'credit', 'completed', stripe_session_id from public.deposits
       where stripe_session_id = ${COMPLETED_DEPOSIT}`,
      ],
      (rows) => rows.length > 0,
    ],
    [
      3,
      'a completed deposit credited for another amount',
      [`update public.deposits set amount = amount + 1 where stripe_session_id = ${COMPLETED_DEPOSIT}`],
      (rows) => rows.length > 0,
    ],
    [
      4,
      'a payout transferred twice',
      [
        'alter table public.wallet_transactions drop constraint wallet_transactions_type_reference_key',
        `insert into public.wallet_transactions (user_id, amount, type, status, reference)
       select user_id, amount, type, status, reference from public.wallet_transactions
       where reference = 'payout:' || ${PAID_PAYOUT}`,
      ],
      (rows) => rows.some((r) => String(r.reference).startsWith('payout:')),
    ],
    [
      5,
      'a paid request whose ledger row is for another amount',
      [`update public.payout_requests set amount = amount + 1 where id = ${PAID_PAYOUT}`],
      (rows) => rows.length > 0,
    ],
    [
      6,
      'a payout request larger than the earnings',
      [`insert into public.payout_requests (publisher_id, amount) values ('${ids.publisher}', 1000000)`],
      (rows) => rows.some((r) => r.id === ids.publisher),
    ],
    [
      7,
      'a subscriber charged a second time',
      [
        `insert into public.wallet_transactions (user_id, amount, type, status, reference, campaign_id, subscription_id)
       select user_id, amount, 'debit', 'completed', 'again:' || reference, campaign_id, subscription_id
       from public.wallet_transactions where type = 'debit' and subscription_id = ${COUNTED_SUBSCRIPTION}`,
      ],
      (rows) => rows.length > 0,
    ],
    [
      8,
      'an earning that is not 80% of the charge',
      [
        `update public.wallet_transactions set amount = amount + 0.01
       where type = 'earning' and subscription_id = ${COUNTED_SUBSCRIPTION}`,
      ],
      (rows) => rows.length > 0,
    ],
    [
      9,
      'an earning made available while its hold is still pending',
      [
        // A subscriber of its own making: other files share this database and may have settled every pending pair.
        `update public.wallet_transactions set status = 'pending'
       where type = 'hold' and subscription_id = ${COUNTED_SUBSCRIPTION}`,
        `update public.wallet_transactions set status = 'completed'
       where type = 'earning' and subscription_id = ${COUNTED_SUBSCRIPTION}`,
      ],
      (rows) => rows.length > 0,
    ],
    [
      10,
      'a debit without the released hold it settles',
      [
        `update public.wallet_transactions set amount = amount - 1
       where type = 'debit' and subscription_id = ${COUNTED_SUBSCRIPTION}`,
      ],
      (rows) => rows.length > 0,
    ],
    [
      11,
      'a spent budget that is not what its subscribers were charged',
      [`update public.campaigns set budget_spent = budget_spent + 1 where id = '${ids.campaignActive}'`],
      (rows) => rows.some((r) => r.id === ids.campaignActive),
    ],
  ]

  it.each(cases)('invariant %i catches %s', async (index, _what, corrupt, names) => {
    expect(names(await now(index))).toBe(false)
    expect(names(await afterCorruption(index, corrupt))).toBe(true)
  })

  it('covers every invariant with a case', () => {
    expect(new Set(cases.map(([index]) => index))).toEqual(new Set(INVARIANTS.map((_, i) => i)))
  })
})
