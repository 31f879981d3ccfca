// Payouts through Stripe Connect (issue 24), where SQL decides: the payout account a publisher needs, claims that
// never hand one payout to two runs, paid and failed results (failed → available again), an admin's retry and
// mark-paid-by-hand, automatic payouts, and who may read or write what.
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { PAYOUT_ACCOUNT_MESSAGES } from '../functions/_shared/rules/payout'
import { errorOf, queryAs, service, testDb, STORE_VAULT_SECRETS, user } from './helpers/db'
import { actors, attempt, createUser, ids, ledgerMismatches, payoutAccount, type NewUser } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe } from './helpers/market'

afterEach(async () => {
  expect(await ledgerMismatches()).toEqual([])
})

type Json = Record<string, unknown>
type Claimed = {
  id: string
  publisher_id: string
  amount: string
  destination: string
  attempts: number
  idempotency_key: string
}
const one = async (actor: Parameters<typeof queryAs>[0], sql: string, params: unknown[] = []) =>
  (await queryAs<{ r: Json }>(actor, sql, params))[0]!.r

/** A publisher who earned 80 credits (two subscribers at 50, 80% each) that have passed the 7-day screening. */
async function publisherWithEarnings(): Promise<NewUser> {
  const m = await createMarket({ deposit: 200, price: 50, budget: 200 })
  for (let i = 0; i < 2; i++) {
    const email = `payout-${randomUUID()}@example.com`
    const { tokens } = await subscribe(email, [m.campaignId], { sourceId: m.sourceId })
    await ageSubscription(email)
    expect(await confirm(tokens[0]!, email)).toMatchObject({ counted: true })
  }
  // Screening backdated: the earnings' available_at is in the past, so the scheduled settlement makes them available.
  const db = await testDb()
  await db.query(
    `update public.wallet_transactions set available_at = now() - interval '1 minute'
     where status = 'pending' and user_id in ($1, $2)`,
    [m.publisher.id, m.advertiser.id],
  )
  await db.query('select public.settle_matured_holds()')
  return m.publisher
}

const balance = (p: NewUser) =>
  queryAs(p.actor, 'select available::text, requested::text, paid::text from public.publisher_balance()')

/**
 * Claims as send-payouts does, keeping only this test's payouts: payouts of other tests (the seed's, other files')
 * that a claim took are put back exactly as they were, so the shared database stays as the other tests expect.
 */
async function claim(mine: string[], limit = 100): Promise<Claimed[]> {
  const rows = await queryAs<Claimed>(service, 'select * from public.claim_due_payouts($1)', [limit])
  const others = rows.filter((r) => !mine.includes(r.id)).map((r) => r.id)
  if (others.length) {
    const db = await testDb()
    await db.query(
      `update public.payout_requests set status = 'requested', attempts = attempts - 1, locked_until = null,
         destination = null where id = any($1::uuid[])`,
      [others],
    )
  }
  return rows.filter((r) => mine.includes(r.id))
}

describe('payout accounts', () => {
  it('refuses a payout request without a ready account, in the words the payouts page shows', async () => {
    const p = await publisherWithEarnings()
    const request = () => errorOf(p.actor, 'select public.request_payout(50)')
    expect(await request()).toBe(PAYOUT_ACCOUNT_MESSAGES.not_set_up)
    const account = await payoutAccount(p.id, 'not_set_up')
    expect(await request()).toBe(PAYOUT_ACCOUNT_MESSAGES.not_set_up)
    await payoutAccount(p.id, 'pending_verification')
    expect(await request()).toBe(PAYOUT_ACCOUNT_MESSAGES.pending_verification)
    await payoutAccount(p.id, 'action_needed')
    expect(await request()).toBe(PAYOUT_ACCOUNT_MESSAGES.action_needed)
    expect(await errorOf(p.actor, 'select public.set_auto_payout(true)')).toBe(PAYOUT_ACCOUNT_MESSAGES.action_needed)
    // A rejected account needs action too, whatever else it says.
    await queryAs(
      service,
      `select public.update_payout_account($1, true, false, '{}', 'rejected.other', clock_timestamp())`,
      [account],
    )
    expect(await request()).toBe(PAYOUT_ACCOUNT_MESSAGES.action_needed)
    await payoutAccount(p.id, 'ready')
    expect(await request()).toBe('')
    expect(await balance(p)).toEqual([{ available: '30.00', requested: '50.00', paid: '0.00' }])
  })

  it('keeps one account per publisher and applies only the newest Stripe event', async () => {
    const p = await createUser('publisher')
    const link = (acct: string) =>
      one(service, 'select public.link_payout_account($1, $2) as r', [p.id, acct]) as unknown as Promise<string>
    expect(await link('acct_First1')).toBe('acct_First1')
    // A second onboarding started at the same moment gets the first account.
    expect(await link('acct_Second2')).toBe('acct_First1')
    expect(await errorOf(service, 'select public.link_payout_account($1, $2)', [ids.advertiser, 'acct_Adv1'])).toBe(
      'Only publishers can set up payouts',
    )
    const update = (enabled: boolean, at: string) =>
      one(service, `select public.update_payout_account('acct_First1', true, $1, '{}', null, $2::timestamptz) as r`, [
        enabled,
        at,
      ])
    expect(await update(true, '2026-04-02T10:00:00Z')).toBe('ready')
    // An older event delivered late changes nothing.
    expect(await update(false, '2026-04-02T09:00:00Z')).toBe('stale')
    expect(await queryAs(p.actor, 'select state from public.payout_accounts')).toEqual([{ state: 'ready' }])
    expect(
      await one(service, `select public.update_payout_account('acct_Nobody', true, true, '{}', null, now()) as r`),
    ).toBe('unknown_account')
  })

  it('lets owners and admins read accounts and nobody but the service role write them or payout bookkeeping', async () => {
    const p = await createUser('publisher')
    const account = await payoutAccount(p.id)
    expect(await queryAs(p.actor, 'select stripe_account_id, state from public.payout_accounts')).toEqual([
      { stripe_account_id: account, state: 'ready' },
    ])
    expect(
      await queryAs(actors.otherPublisher, 'select 1 from public.payout_accounts where publisher_id = $1', [p.id]),
    ).toEqual([])
    expect(
      await queryAs(actors.admin, 'select 1 as n from public.payout_accounts where publisher_id = $1', [p.id]),
    ).toEqual([{ n: 1 }])
    for (const sql of [
      `update public.payout_accounts set payouts_enabled = true, state = 'ready' where publisher_id = '${p.id}'`,
      `update public.payout_accounts set auto_payout = true where publisher_id = '${p.id}'`,
      `insert into public.payout_accounts (publisher_id, stripe_account_id) values ('${p.id}', 'acct_Mine')`,
      `delete from public.payout_accounts where publisher_id = '${p.id}'`,
      `update public.payout_requests set status = 'requested', failure_reason = null where publisher_id = '${p.id}'`,
    ]) {
      expect((await attempt(p.actor, sql)).error, sql).toMatch(/permission denied/)
    }
    for (const sql of [
      'select * from public.claim_due_payouts(1)',
      `select public.finish_payout('${randomUUID()}', 'tr_x', null)`,
      `select public.link_payout_account('${p.id}', 'acct_Other')`,
      `select public.update_payout_account('${account}', true, true, '{}', null, now())`,
      `select public.admin_retry_payout('${randomUUID()}')`,
    ]) {
      expect(await errorOf(p.actor, sql), sql).toMatch(/permission denied|Only an admin can do this/)
    }
  })
})

describe('sending payouts', () => {
  it('earn, request, and a payout claimed by two runs at once is transferred once', async () => {
    const p = await publisherWithEarnings()
    const account = await payoutAccount(p.id)
    const payout = (await one(p.actor, 'select public.request_payout(60) as r')).id as string
    // Two send-payouts runs at the same moment: the payout goes to exactly one of them.
    const [a, b] = await Promise.all([claim([payout]), claim([payout])])
    const claimed = [...a, ...b]
    expect(claimed).toEqual([
      { id: payout, publisher_id: p.id, amount: '60.00', destination: account, attempts: 1, idempotency_key: payout },
    ])
    expect(await claim([payout])).toEqual([])
    // While the transfer is in flight the amount stays set aside, and an admin cannot pay it by hand.
    expect(await balance(p)).toEqual([{ available: '20.00', requested: '60.00', paid: '0.00' }])
    expect(await errorOf(actors.admin, "select public.admin_mark_payout_paid($1, 'SEPA-1')", [payout])).toBe(
      'This payout is being sent through Stripe; wait for its result',
    )

    expect(await errorOf(service, 'select public.finish_payout($1, null, null)', [payout])).toBe(
      'Give either the transfer id or the failure',
    )
    expect(await errorOf(service, "select public.finish_payout($1, 'po_123')", [payout])).toBe(
      'A Stripe transfer id starts with tr_',
    )
    expect(await one(service, "select public.finish_payout($1, 'tr_1Local42') as r", [payout])).toMatchObject({
      result: 'paid',
      transfer_reference: 'tr_1Local42',
    })
    // A replay (the transfer.created webhook, a retry) changes nothing.
    expect(await one(service, "select public.finish_payout($1, 'tr_1Local42') as r", [payout])).toMatchObject({
      result: 'already_paid',
    })
    expect(await one(service, "select public.finish_payout($1, null, 'late failure') as r", [payout])).toMatchObject({
      result: 'already_paid',
    })
    expect(await balance(p)).toEqual([{ available: '20.00', requested: '0.00', paid: '60.00' }])
    expect(
      await queryAs(
        p.actor,
        'select status, transfer_reference, paid_at is not null as paid from public.payout_requests',
      ),
    ).toEqual([{ status: 'paid', transfer_reference: 'tr_1Local42', paid: true }])
    expect(
      await queryAs(p.actor, "select amount::text, description from public.wallet_transactions where type = 'payout'"),
    ).toEqual([{ amount: '-60.00', description: 'Payout (Stripe transfer tr_1Local42)' }])
    const db = await testDb()
    const emails = await db.query('select template, data from public.notification_queue where user_id = $1', [p.id])
    expect(emails.rows).toEqual([
      { template: 'payout_paid', data: expect.objectContaining({ amount: 60, reference: 'tr_1Local42' }) },
    ])
  })

  it('a failed transfer makes the amount available again; an admin retries it or marks it paid by hand', async () => {
    const p = await publisherWithEarnings()
    await payoutAccount(p.id)
    const payout = (await one(p.actor, 'select public.request_payout(70) as r')).id as string
    expect(await claim([payout])).toHaveLength(1)
    const reason = 'Your destination account needs to have at least one of the following capabilities enabled'
    expect(await one(service, 'select public.finish_payout($1, null, $2) as r', [payout, reason])).toMatchObject({
      result: 'failed',
    })
    expect(await balance(p)).toEqual([{ available: '80.00', requested: '0.00', paid: '0.00' }])
    expect(
      await queryAs(
        p.actor,
        'select status, failure_reason, failed_at is not null as failed from public.payout_requests',
      ),
    ).toEqual([{ status: 'failed', failure_reason: reason, failed: true }])
    const db = await testDb()
    expect(
      (await db.query('select template, data from public.notification_queue where user_id = $1', [p.id])).rows,
    ).toEqual([{ template: 'payout_failed', data: { amount: 70, reason } }])

    // Retry: only admins, only failed payouts, only while the money and the account are still there.
    expect(await errorOf(p.actor, 'select public.admin_retry_payout($1)', [payout])).toBe('Only an admin can do this')
    await payoutAccount(p.id, 'action_needed')
    expect(await errorOf(actors.admin, 'select public.admin_retry_payout($1)', [payout])).toBe(
      "The publisher's payout account is not ready: " +
        'Stripe needs more information before you can be paid. Open "Set up payouts" and finish what it asks.',
    )
    await payoutAccount(p.id, 'ready')
    expect(await one(actors.admin, 'select public.admin_retry_payout($1) as r', [payout])).toMatchObject({
      status: 'requested',
    })
    expect(await errorOf(actors.admin, 'select public.admin_retry_payout($1)', [payout])).toBe(
      'Only a failed payout can be retried',
    )
    expect(await balance(p)).toEqual([{ available: '10.00', requested: '70.00', paid: '0.00' }])
    const second = await claim([payout])
    // Stripe may keep its refusal under the first key: the retry is a new request.
    expect(second).toMatchObject([{ id: payout, attempts: 2, idempotency_key: `${payout}:retry-1` }])
    await queryAs(service, "select public.finish_payout($1, null, 'Refused again')", [payout])

    // Mark paid by hand (paid outside Stripe) needs what is available now: the publisher asked for 50 of the 80 meanwhile.
    await one(p.actor, 'select public.request_payout(50) as r')
    expect(await errorOf(actors.admin, "select public.admin_mark_payout_paid($1, 'WIRE-1')", [payout])).toBe(
      "The publisher's available balance no longer covers this payout",
    )
    const open = (
      await queryAs<{ id: string }>(p.actor, "select id from public.payout_requests where status = 'requested'")
    )[0]!.id
    await one(actors.admin, "select public.admin_mark_payout_paid($1, 'WIRE-0') as r", [open])
    const db2 = await testDb()
    await db2.query('select private.post_ledger($1, 50, $2, $3, $4, $5)', [
      p.id,
      'earning',
      'completed',
      'Test',
      `e-${p.id}`,
    ])
    expect(await one(actors.admin, "select public.admin_mark_payout_paid($1, 'WIRE-2') as r", [payout])).toMatchObject({
      status: 'paid',
      transfer_reference: 'WIRE-2',
    })
    expect(await balance(p)).toEqual([{ available: '10.00', requested: '0.00', paid: '120.00' }])
  })

  it('a run that died mid-transfer leaves the payout to the next run after its lease, to the same account', async () => {
    const p = await publisherWithEarnings()
    const account = await payoutAccount(p.id)
    const payout = (await one(p.actor, 'select public.request_payout(50) as r')).id as string
    expect(await claim([payout])).toHaveLength(1)
    expect(await claim([payout])).toEqual([])
    const db = await testDb()
    await db.query("update public.payout_requests set locked_until = now() - interval '1 second' where id = $1", [
      payout,
    ])
    expect(await claim([payout])).toEqual([
      { id: payout, publisher_id: p.id, amount: '50.00', destination: account, attempts: 2, idempotency_key: payout },
    ])
    await queryAs(service, "select public.finish_payout($1, 'tr_1Resent')", [payout])
  })

  it('pays out automatically when asked, once available reaches the minimum, and asks send-payouts through pg_net', async () => {
    const p = await publisherWithEarnings()
    await payoutAccount(p.id)
    expect(await one(p.actor, 'select public.set_auto_payout(true) as r')).toBe(true)
    const db = await testDb()
    await db.exec(STORE_VAULT_SECRETS)
    try {
      await db.query("delete from net.http_request_queue where url like '%/functions/v1/send-payouts'")
      expect((await db.query<{ n: number }>('select private.dispatch_payouts() as n')).rows[0]!.n).toBeGreaterThan(0)
      expect(
        await queryAs(p.actor, "select amount::text from public.payout_requests where status = 'requested'"),
      ).toEqual([{ amount: '80.00' }])
      expect(
        (
          await db.query(
            "select 1 from net.http_request_queue where url = 'http://127.0.0.1:54321/functions/v1/send-payouts'",
          )
        ).rows,
      ).toHaveLength(1)
      // Nothing twice: with one payout on its way the next run adds none.
      await db.query('select private.dispatch_payouts()')
      expect(await queryAs(p.actor, 'select count(*)::int as n from public.payout_requests')).toEqual([{ n: 1 }])
    } finally {
      await db.query("delete from net.http_request_queue where url like '%/functions/v1/send-payouts'")
      await db.query("delete from vault.secrets where name in ('project_url', 'functions_secret')")
    }
    expect(await one(p.actor, 'select public.set_auto_payout(false) as r')).toBe(false)
  })
})

// Issue 37, where SQL decides: the claim re-checks the account, a reversed transfer brings the money back once, and
// only admins at aal2 get what the reconciliation compares.
describe('the account is re-checked when a payout is due', () => {
  const notifications = async (userId: string) =>
    (
      await (
        await testDb()
      ).query<{ template: string; data: Json }>(
        'select template, data from public.notification_queue where user_id = $1 order by created_at, id',
        [userId],
      )
    ).rows

  it('attack: the account stops being ready after the request; the claim sends nothing and fails the payout with why (honest: once ready, it is sent)', async () => {
    const p = await publisherWithEarnings()
    const account = await payoutAccount(p.id)
    const payout = (await one(p.actor, 'select public.request_payout(60) as r')).id as string
    // Stripe rejects the account (connect-webhook applies what Stripe reports) before send-payouts runs.
    await queryAs(
      service,
      `select public.update_payout_account($1, true, false, '{}', 'rejected.other', clock_timestamp())`,
      [account],
    )
    expect(await claim([payout])).toEqual([])
    expect(
      await queryAs(
        p.actor,
        `select status, failure_reason, failed_before_transfer, attempts, destination, failed_at is not null as failed
         from public.payout_requests where id = $1`,
        [payout],
      ),
    ).toEqual([
      {
        status: 'failed',
        failure_reason: PAYOUT_ACCOUNT_MESSAGES.action_needed,
        failed_before_transfer: true,
        attempts: 0,
        destination: null,
        failed: true,
      },
    ])
    // Nothing left the platform: the whole 80 is available again, and the publisher is told why.
    expect(await balance(p)).toEqual([{ available: '80.00', requested: '0.00', paid: '0.00' }])
    expect(await notifications(p.id)).toEqual([
      {
        template: 'payout_failed',
        data: { amount: 60, reason: PAYOUT_ACCOUNT_MESSAGES.action_needed, before_transfer: true },
      },
    ])
    // Claimed again: still nothing (a failed payout is not due).
    expect(await claim([payout])).toEqual([])

    // Honest: the account is ready again; an admin's retry sends it, and Stripe's answer is recorded as usual.
    await payoutAccount(p.id, 'ready')
    await one(actors.admin, 'select public.admin_retry_payout($1) as r', [payout])
    expect(await claim([payout])).toEqual([
      {
        id: payout,
        publisher_id: p.id,
        amount: '60.00',
        destination: account,
        attempts: 1,
        idempotency_key: `${payout}:retry-1`,
      },
    ])
    await queryAs(service, "select public.finish_payout($1, null, 'Refused by Stripe')", [payout])
    // A Stripe refusal now says so, whatever the earlier attempt said.
    expect(
      await queryAs(p.actor, 'select failed_before_transfer from public.payout_requests where id = $1', [payout]),
    ).toEqual([{ failed_before_transfer: false }])
  })

  it('a payout already sent once is resent with its own key even if the account is no longer ready: Stripe may have made it', async () => {
    const p = await publisherWithEarnings()
    const account = await payoutAccount(p.id)
    const payout = (await one(p.actor, 'select public.request_payout(50) as r')).id as string
    expect(await claim([payout])).toHaveLength(1)
    await payoutAccount(p.id, 'action_needed')
    const db = await testDb()
    await db.query("update public.payout_requests set locked_until = now() - interval '1 second' where id = $1", [
      payout,
    ])
    // Failing it here could pay twice (the first request may have reached Stripe); the same request is sent again.
    expect(await claim([payout])).toMatchObject([{ id: payout, destination: account, idempotency_key: payout }])
    await queryAs(service, "select public.finish_payout($1, 'tr_1SentBefore')", [payout])
  })
})

describe('transfer.reversed', () => {
  const reverse = (payout: string, transfer: string, cents: number) =>
    one(service, 'select public.record_payout_reversal($1, $2, $3) as r', [payout, transfer, cents])
  const paidOut = async () =>
    Number(
      (await queryAs<{ paid_out: string }>(actors.admin, 'select paid_out from public.admin_marketplace_totals()'))[0]!
        .paid_out,
    )

  /** A publisher with 80 available whose payout of 60 was transferred as `transfer`. */
  async function paidPayout(transfer: string) {
    const p = await publisherWithEarnings()
    await payoutAccount(p.id)
    const payout = (await one(p.actor, 'select public.request_payout(60) as r')).id as string
    expect(await claim([payout])).toHaveLength(1)
    await queryAs(service, 'select public.finish_payout($1, $2)', [payout, transfer])
    return { p, payout }
  }

  it('attack: a reversed payout stayed paid; now the money comes back once per amount (ledger, balance, status, email, audit, admin views)', async () => {
    const { p, payout } = await paidPayout('tr_1Reversed')
    expect(await balance(p)).toEqual([{ available: '20.00', requested: '0.00', paid: '60.00' }])
    const before = await paidOut()

    // Stripe reverses 20.00 of the 60.00: the payout stays paid, 20 is the publisher's again.
    expect(await reverse(payout, 'tr_1Reversed', 2000)).toEqual({
      result: 'partly_reversed',
      status: 'paid',
      returned: 20,
      amount_reversed: 20,
    })
    expect(await balance(p)).toEqual([{ available: '40.00', requested: '0.00', paid: '40.00' }])
    // Replays, and an older reading of the transfer applied late, bring nothing more back.
    for (const cents of [2000, 1000, 0]) {
      expect(await reverse(payout, 'tr_1Reversed', cents)).toMatchObject({ result: 'already_recorded' })
    }
    // Then the rest: the whole transfer is reversed.
    expect(await reverse(payout, 'tr_1Reversed', 6000)).toEqual({
      result: 'reversed',
      status: 'reversed',
      returned: 40,
      amount_reversed: 60,
    })
    expect(await reverse(payout, 'tr_1Reversed', 6000)).toMatchObject({ result: 'already_recorded' })
    expect(await balance(p)).toEqual([{ available: '80.00', requested: '0.00', paid: '0.00' }])
    expect(await paidOut()).toBeCloseTo(before - 60, 2)

    expect(
      await queryAs(
        p.actor,
        "select amount::text, description from public.wallet_transactions where type = 'payout' order by created_at, amount",
      ),
    ).toEqual([
      { amount: '-60.00', description: 'Payout (Stripe transfer tr_1Reversed)' },
      { amount: '20.00', description: 'Payout reversed by Stripe (transfer tr_1Reversed)' },
      { amount: '40.00', description: 'Payout reversed by Stripe (transfer tr_1Reversed)' },
    ])
    expect(
      await queryAs(
        p.actor,
        'select status, amount_reversed::text, reversed_at is not null as dated from public.payout_requests where id = $1',
        [payout],
      ),
    ).toEqual([{ status: 'reversed', amount_reversed: '60.00', dated: true }])
    const db = await testDb()
    expect(
      (
        await db.query<{ template: string; data: Json }>(
          "select template, data from public.notification_queue where user_id = $1 and template = 'payout_reversed' order by created_at",
          [p.id],
        )
      ).rows.map((r) => r.data),
    ).toEqual([
      { amount: 60, returned: 20, amount_reversed: 20, reference: 'tr_1Reversed', whole: false },
      { amount: 60, returned: 40, amount_reversed: 60, reference: 'tr_1Reversed', whole: true },
    ])
    expect(
      (
        await db.query(
          "select old_status, new_status, reason from public.moderation_events where subject_id = $1 and new_status in ('paid', 'reversed') and old_status <> 'sending' order by created_at",
          [payout],
        )
      ).rows,
    ).toEqual([
      {
        old_status: 'paid',
        new_status: 'paid',
        reason: '20.00 credits came back: Stripe reversed transfer tr_1Reversed',
      },
      {
        old_status: 'paid',
        new_status: 'reversed',
        reason: '40.00 credits came back: Stripe reversed transfer tr_1Reversed',
      },
    ])
    // The admin's list shows it, and a reversed payout cannot be marked paid by hand; the publisher may ask again.
    expect(
      await queryAs(
        actors.admin,
        "select status, amount_reversed::text from public.admin_payout_requests($1, 'reversed')",
        [p.email],
      ),
    ).toEqual([{ status: 'reversed', amount_reversed: '60.00' }])
    expect(await errorOf(actors.admin, "select public.admin_mark_payout_paid($1, 'WIRE-9')", [payout])).toBe(
      'This payout was already handled',
    )
    expect(
      await errorOf(p.actor, 'select public.record_payout_reversal($1, $2, 6000)', [payout, 'tr_1Reversed']),
    ).toMatch(/permission denied/)
    expect(await one(p.actor, 'select public.request_payout(80) as r')).toMatchObject({ status: 'requested' })
    // Put aside, so no later claim in this file takes it.
    await queryAs(
      service,
      "update public.payout_requests set status = 'canceled' where publisher_id = $1 and status = 'requested'",
      [p.id],
    )
  })

  it('names only its own transfer, and records a payout still being sent paid before the reversal', async () => {
    const { payout } = await paidPayout('tr_1Mine')
    expect(await reverse(payout, 'tr_1SomeoneElse', 6000)).toEqual({ result: 'not_this_payout', status: 'paid' })
    expect(await reverse(randomUUID(), 'tr_1Mine', 6000)).toEqual({ result: 'unknown_payout' })
    expect(await errorOf(service, "select public.record_payout_reversal($1, 'po_1', 10)", [payout])).toBe(
      'A Stripe transfer id starts with tr_',
    )
    expect(await errorOf(service, "select public.record_payout_reversal($1, 'tr_1Mine', -1)", [payout])).toBe(
      'Give the amount reversed in cents (0 or more)',
    )

    // send-payouts died after Stripe made the transfer, and Stripe reversed it before transfer.created was applied.
    const p = await publisherWithEarnings()
    await payoutAccount(p.id)
    const sending = (await one(p.actor, 'select public.request_payout(50) as r')).id as string
    expect(await claim([sending])).toHaveLength(1)
    expect(await reverse(sending, 'tr_1DiedThenReversed', 5000)).toMatchObject({ result: 'reversed', returned: 50 })
    expect(await balance(p)).toEqual([{ available: '80.00', requested: '0.00', paid: '0.00' }])
    expect(
      await queryAs(p.actor, 'select status, transfer_reference from public.payout_requests where id = $1', [sending]),
    ).toEqual([{ status: 'reversed', transfer_reference: 'tr_1DiedThenReversed' }])
  })
})

describe('reconciliation scope', () => {
  it('gives admins at aal2 the accounts and every payout that may have a transfer; nobody else', async () => {
    const p = await publisherWithEarnings()
    const account = await payoutAccount(p.id)
    const payout = (await one(p.actor, 'select public.request_payout(50) as r')).id as string
    expect(await claim([payout])).toHaveLength(1)
    await queryAs(service, "select public.finish_payout($1, 'tr_1Scope')", [payout])
    const scope = (await one(actors.admin, 'select public.admin_payout_reconciliation_scope() as r')) as {
      accounts: Json[]
      payouts: Json[]
    }
    expect(scope.accounts).toContainEqual({
      account,
      publisher_id: p.id,
      publisher_email: p.email,
      publisher_name: 'Test publisher',
    })
    expect(scope.payouts).toContainEqual({
      id: payout,
      publisher_id: p.id,
      amount: 50,
      status: 'paid',
      transfer_reference: 'tr_1Scope',
      destination: account,
      amount_reversed: 0,
    })
    expect(await errorOf(p.actor, 'select public.admin_payout_reconciliation_scope()')).toBe(
      'Only an admin can do this',
    )
    expect(
      await errorOf(user(ids.admin, 'admin@growletter.test'), 'select public.admin_payout_reconciliation_scope()'),
    ).toBe('Enter your two-factor code to use admin tools')
    expect(await errorOf({ role: 'anon' }, 'select public.admin_payout_reconciliation_scope()')).toMatch(
      /permission denied/,
    )
  })
})
