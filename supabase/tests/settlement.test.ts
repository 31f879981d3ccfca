// Settlement that one row cannot stop (issue 21, attack 1). One advertiser whose wallet could not pay a
// matured hold rolled back the whole market's settlement every minute. Now each row settles on its own,
// a failing row is recorded for admins and retried, and a hold the wallet cannot cover is never placed.
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { errorOf, queryAs, service, testDb } from './helpers/db'
import { actors, ledgerMismatches } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe, walletOf, type Market } from './helpers/market'

const address = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@example.com`

async function paidSubscriber(m: Market, tag: string) {
  const email = address(tag)
  const { tokens } = await subscribe(email, [m.campaignId], { sourceId: m.sourceId })
  await ageSubscription(email)
  expect(await confirm(tokens[0]!, email)).toMatchObject({ result: 'confirmed', counted: true })
  const db = await testDb()
  return (await db.query<{ id: string }>('select id from public.newsletter_subscriptions where email = $1', [email]))
    .rows[0]!.id
}

/** Money leaves the wallet outside the marketplace (a card chargeback, say), as the ledger records it. */
async function chargeBack(userId: string, amount: number) {
  const db = await testDb()
  await db.query(`select private.post_ledger($1, $2, 'debit', 'completed', 'Card payment reversed', $3)`, [
    userId,
    -amount,
    `chargeback:${randomUUID()}`,
  ])
}

const ledgerOf = async (subscriptionId: string) => {
  const db = await testDb()
  return (
    await db.query<{ type: string; status: string }>(
      'select type, status from public.wallet_transactions where subscription_id = $1 order by type, status',
      [subscriptionId],
    )
  ).rows.map((r) => `${r.type} ${r.status}`)
}

const failuresOf = async (subscriptionId: string) => {
  const db = await testDb()
  return (
    await db.query<{ type: string; reason: string; attempts: number; resolved: boolean }>(
      `select type, reason, attempts, resolved_at is not null as resolved from public.settlement_failures
       where subscription_id = $1 order by type`,
      [subscriptionId],
    )
  ).rows
}

const settle = () =>
  queryAs<{ n: number }>(service, "select public.settle_matured_holds(now() + interval '8 days') as n")

describe('settlement, row by row', () => {
  it('settles every other row when one wallet cannot pay, records the failure for admins, and settles it once funded', async () => {
    const broke = await createMarket({ deposit: 100, price: 10, budget: 100 })
    const healthy = await createMarket({ deposit: 100, price: 10, budget: 100 })
    const stuck = [await paidSubscriber(broke, 'stuck-1'), await paidSubscriber(broke, 'stuck-2')]
    const fine = await paidSubscriber(healthy, 'fine')
    await chargeBack(broke.advertiser.id, 95)
    expect(await walletOf(broke.advertiser.id)).toMatchObject({ balance: '5.00', held: '20.00' })

    const [run] = await settle()
    expect(run!.n).toBeGreaterThanOrEqual(2)
    // The healthy market settled: the advertiser paid, the publisher can withdraw.
    expect(await ledgerOf(fine)).toEqual(['debit completed', 'earning completed', 'hold canceled'])
    expect(await walletOf(healthy.advertiser.id)).toMatchObject({ balance: '90.00', held: '0.00' })
    expect(await queryAs(healthy.publisher.actor, 'select available from public.publisher_balance()')).toEqual([
      { available: '8.00' },
    ])
    // The broke advertiser's holds stay pending, and so do the earnings on those subscribers.
    for (const id of stuck) {
      expect(await ledgerOf(id)).toEqual(['earning pending', 'hold pending'])
      expect(await failuresOf(id)).toEqual([
        {
          type: 'earning',
          reason: "Waiting for the advertiser's hold on this subscriber to settle",
          attempts: 1,
          resolved: false,
        },
        {
          type: 'hold',
          reason: "The advertiser's balance (5.00 credits) cannot pay this hold of 10.00 credits",
          attempts: 1,
          resolved: false,
        },
      ])
    }
    expect(await walletOf(broke.advertiser.id)).toMatchObject({ balance: '5.00', held: '20.00' })

    // Admins read the report; nobody else does.
    const seen = await queryAs<{ reason: string }>(
      actors.admin,
      'select reason from public.settlement_failures where subscription_id = $1 order by type',
      [stuck[0]],
    )
    expect(seen).toHaveLength(2)
    expect(await queryAs(broke.advertiser.actor, 'select 1 from public.settlement_failures')).toEqual([])

    // The scheduled job runs again a minute later: still stuck, counted, and nothing else is affected.
    await settle()
    expect((await failuresOf(stuck[0]!)).map((f) => f.attempts)).toEqual([2, 2])
    // The admins' audit log says so once per failing hold, whatever the number of runs.
    const audit = () =>
      queryAs<{ old_status: string; new_status: string; reason: string | null; actor_name: string }>(
        actors.admin,
        "select old_status, new_status, reason, actor_name from public.admin_audit_log(100, 0, 'subscription') where subject_id = $1 order by created_at",
        [stuck[0]],
      )
    expect(await audit()).toEqual([
      {
        old_status: 'on hold',
        new_status: 'settlement failed',
        reason: "The advertiser's balance (5.00 credits) cannot pay this hold of 10.00 credits",
        actor_name: 'System',
      },
    ])

    // The advertiser tops up: the next run settles both subscribers and closes the records.
    await queryAs(service, 'select public.credit_deposit($1, 20, $2)', [broke.advertiser.id, `cs_${randomUUID()}`])
    await settle()
    for (const id of stuck) {
      expect(await ledgerOf(id)).toEqual(['debit completed', 'earning completed', 'hold canceled'])
      expect((await failuresOf(id)).map((f) => f.resolved)).toEqual([true, true])
    }
    expect(await walletOf(broke.advertiser.id)).toMatchObject({ balance: '5.00', held: '0.00' })
    expect((await audit()).map((e) => e.new_status)).toEqual(['settlement failed', 'settled'])
    expect(await ledgerMismatches()).toEqual([])
  })

  it('the scheduled job succeeds while a wallet cannot pay (it no longer fails every minute)', async () => {
    const broke = await createMarket({ deposit: 10, price: 10, budget: 100 })
    const stuck = await paidSubscriber(broke, 'cron')
    await chargeBack(broke.advertiser.id, 5)
    const db = await testDb()
    await db.query(
      "update public.wallet_transactions set available_at = now() - interval '1 minute' where subscription_id = $1",
      [stuck],
    )
    expect(await errorOf(service, 'select public.settle_matured_holds()')).toBe('')
    expect(await ledgerOf(stuck)).toEqual(['earning pending', 'hold pending'])
    expect((await failuresOf(stuck)).map((f) => f.type)).toEqual(['earning', 'hold'])
  })
})

describe('a hold the wallet cannot cover is never placed', () => {
  it('confirms the subscriber unpaid (budget_exhausted) when the money promised is gone by confirmation', async () => {
    const m = await createMarket({ deposit: 10, price: 10, budget: 100 })
    const email = address('late')
    const { tokens } = await subscribe(email, [m.campaignId], { sourceId: m.sourceId })
    expect(await walletOf(m.advertiser.id)).toMatchObject({ reserved: '10.00', available: '0.00' })
    await chargeBack(m.advertiser.id, 5)
    await ageSubscription(email)
    expect(await confirm(tokens[0]!, email)).toMatchObject({
      result: 'confirmed',
      counted: false,
      not_counted_reason: 'budget_exhausted',
    })
    expect(await walletOf(m.advertiser.id)).toMatchObject({ balance: '5.00', held: '0.00', reserved: '0.00' })
    expect(await ledgerMismatches()).toEqual([])
  })

  it('honest: a covered hold is placed as before', async () => {
    const m = await createMarket({ deposit: 10, price: 10, budget: 100 })
    await paidSubscriber(m, 'covered')
    expect(await walletOf(m.advertiser.id)).toMatchObject({ balance: '10.00', held: '10.00', available: '0.00' })
  })

  it('refuses, as the last fence, any hold past the balance whoever writes it', async () => {
    const m = await createMarket({ deposit: 10, price: 10, budget: 100 })
    const db = await testDb()
    const hold = (amount: number) =>
      db
        .query(`select private.post_ledger($1, $2, 'hold', 'pending', 'Forged hold', $3)`, [
          m.advertiser.id,
          -amount,
          `test:${randomUUID()}`,
        ])
        .then(() => '')
        .catch((error: Error) => error.message)
    expect(await hold(11)).toBe('The wallet cannot cover this hold')
    expect(await hold(10)).toBe('')
    expect(await hold(0.01)).toBe('The wallet cannot cover this hold')
  })
})
