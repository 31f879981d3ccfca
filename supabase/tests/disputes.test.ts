// Disputes: an advertiser flags subscribers in screening (or a whole source); an admin reads the evidence
// and upholds (refund through the ledger) or rejects; both sides are emailed and see the outcome; the
// audit log keeps the decision. Money invariants hold after every case. The publisher's side (the answer and
// its 72 hours, before which no decision) is supabase/tests/dispute-answers.test.ts; here the publisher answers
// or lets the 72 hours pass before each decision.
import { randomUUID } from 'node:crypto'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../embedded-backend/db/database'
import { errorOf, queryAs, testDb } from './helpers/db'
import { actors, createUser, ledgerMismatches } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe, walletOf, type Market } from './helpers/market'

let db: Db
beforeAll(async () => {
  db = await testDb()
})
afterEach(async () => {
  expect(await ledgerMismatches()).toEqual([])
})

async function countedSubscriber(m: Market, sourceId = m.sourceId) {
  const email = `dispute-${randomUUID()}@example.com`
  const { tokens } = await subscribe(email, [m.campaignId], { sourceId })
  await ageSubscription(email)
  expect(await confirm(tokens[0]!, email)).toMatchObject({ counted: true })
  return (await db.query<{ id: string }>('select id from public.newsletter_subscriptions where email = $1', [email]))
    .rows[0]!.id
}

const open = (m: Market, reason: string, ids: string[] | null, sourceId: string | null = null) =>
  queryAs<{ id: string }>(m.advertiser.actor, 'select public.open_dispute($1, $2, $3) as id', [
    reason,
    ids,
    sourceId,
  ]).then((r) => r[0]!.id)
const openError = (m: Market, reason: string, ids: string[] | null, sourceId: string | null = null) =>
  errorOf(m.advertiser.actor, 'select public.open_dispute($1, $2, $3)', [reason, ids, sourceId])
const decide = (id: string, decision: string, note: string | null) =>
  queryAs<{ r: Record<string, unknown> }>(actors.admin, 'select public.decide_dispute($1, $2, $3) as r', [
    id,
    decision,
    note,
  ]).then((r) => r[0]!.r)

/** The publisher's 72 hours to answer pass, as time passing would, so the admin may decide. */
const answerWindowPasses = (id: string) =>
  testDb().then((d) =>
    d.query(`update public.disputes set answer_due_at = now() - interval '1 minute' where id = $1`, [id]),
  )

/** Earnings = charges × (1 − 20% fee) over what the campaign still charges (pending holds and debits). */
async function expectEarningsMatchCharges(m: Market) {
  const r = await db.query<{ charged: string | null; earned: string | null }>(
    `select (-sum(amount) filter (where (type = 'debit' or (type = 'hold' and status = 'pending')) and user_id = $2))::text as charged,
            (sum(amount) filter (where type = 'earning' and status in ('pending', 'completed') and user_id = $3))::text as earned
     from public.wallet_transactions where campaign_id = $1`,
    [m.campaignId, m.advertiser.id, m.publisher.id],
  )
  expect(Number(r.rows[0]!.earned ?? 0)).toBeCloseTo(Number(r.rows[0]!.charged ?? 0) * 0.8, 2)
}

describe('opening a dispute', () => {
  it('refuses what it cannot stand behind, with a message that says why', async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    const other = await createMarket({ deposit: 100, price: 10, budget: 100 })
    const mine = await countedSubscriber(m)
    const theirs = await countedSubscriber(other)
    const reason = 'These subscribers never open anything'
    expect(await errorOf(m.publisher.actor, 'select public.open_dispute($1, $2)', [reason, [mine]])).toBe(
      'Only advertisers can open disputes',
    )
    expect(await openError(m, 'too short', [mine])).toBe('Describe the problem in at least 10 characters')
    expect(await openError(m, 'x'.repeat(2001), [mine])).toBe('Keep the description under 2,000 characters')
    expect(await openError(m, reason, null)).toBe('Flag either subscribers or a source')
    expect(await openError(m, reason, [mine], m.sourceId)).toBe('Flag either subscribers or a source')
    expect(
      await openError(
        m,
        reason,
        Array.from({ length: 501 }, () => randomUUID()),
      ),
    ).toBe('Flag at most 500 subscribers at a time')
    expect(await openError(m, reason, [theirs])).toBe('You can only flag subscribers of your own newsletters')
    expect(await openError(m, reason, [randomUUID()])).toBe('You can only flag subscribers of your own newsletters')
    expect(await openError(m, reason, null, other.sourceId)).toBe('This source brought you no paid subscribers')
    // A second source of another publisher, same campaign: one source per dispute.
    const secondSource = (
      await db.query<{ id: string }>(
        `insert into public.audience_sources (publisher_id, name, platform, status, unified_code)
         values ($1, 'Second source', 'x', 'approved', $2) returning id`,
        [other.publisher.id, `s2-${randomUUID().slice(0, 8)}`],
      )
    ).rows[0]!.id
    const viaSecond = await countedSubscriber(m, secondSource)
    expect(await openError(m, reason, [mine, viaSecond])).toBe('Flag the subscribers of one source at a time')
    // Out of screening: no longer refundable, so no longer disputable.
    await db.query(
      `update public.wallet_transactions set available_at = now() - interval '1 minute' where subscription_id = $1`,
      [viaSecond],
    )
    await db.query('select public.settle_matured_holds()')
    expect(await openError(m, reason, [viaSecond])).toBe(
      'You can only flag charged subscribers during their 7-day screening',
    )
    const id = await open(m, reason, [mine])
    expect(await openError(m, reason, [mine])).toBe('These subscribers are already in an open dispute')
    expect(await openError(m, reason, null, m.sourceId)).toBe('These subscribers are already in an open dispute')
    await answerWindowPasses(id)
    await decide(id, 'rejected', 'They do open the emails')
  })
})

describe('deciding a dispute', () => {
  it('upheld: refunds the flagged subscribers in the ledger, tells both sides, logs it, and each side sees it', async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    const [a, b, keep] = [await countedSubscriber(m), await countedSubscriber(m), await countedSubscriber(m)]
    expect(await walletOf(m.advertiser.id)).toMatchObject({ balance: '100.00', held: '30.00' })
    const id = await open(m, 'Two of these signed up from the same device within seconds', [a, b])

    expect(await errorOf(m.advertiser.actor, 'select public.decide_dispute($1, $2, $3)', [id, 'upheld', 'ok'])).toBe(
      'Only an admin can do this',
    )
    expect(await errorOf(actors.admin, 'select public.decide_dispute($1, $2, $3)', [id, 'maybe', 'ok'])).toBe(
      'Decide upheld or rejected',
    )
    expect(await errorOf(actors.admin, 'select public.decide_dispute($1, $2, $3)', [id, 'upheld', '  '])).toBe(
      'Explain the decision: both sides read the note',
    )
    expect(
      await errorOf(actors.admin, 'select public.decide_dispute($1, $2, $3)', [randomUUID(), 'upheld', 'ok']),
    ).toBe('Dispute not found')

    await queryAs(m.publisher.actor, 'select public.answer_dispute($1, $2)', [id, 'Both signed up from my newsletter'])
    expect(await decide(id, 'upheld', 'Same visitor, seconds apart')).toEqual({
      id,
      status: 'upheld',
      refunded: 20,
      refunded_subscribers: 2,
      // Each side in its own money: the publisher lost 80% of the 20.00 refunded.
      earnings_cancelled: 16,
    })
    expect(await errorOf(actors.admin, 'select public.decide_dispute($1, $2, $3)', [id, 'rejected', 'again'])).toBe(
      'This dispute was already decided',
    )
    expect(await walletOf(m.advertiser.id)).toMatchObject({ balance: '100.00', held: '10.00', available: '90.00' })
    expect(await walletOf(m.publisher.id)).toMatchObject({ balance: '0.00', pending_earnings: '8.00' })
    const statuses = await db.query<{ id: string; status: string }>(
      'select id, status from public.newsletter_subscriptions where id = any($1)',
      [[a, b, keep]],
    )
    expect(Object.fromEntries(statuses.rows.map((r) => [r.id, r.status]))).toEqual({
      [a]: 'rejected',
      [b]: 'rejected',
      [keep]: 'confirmed',
    })
    await expectEarningsMatchCharges(m)

    const outcome =
      'select status, decision_note, refunded::text, refunded_subscribers, earnings_cancelled::text from public.disputes where id = $1'
    const expected = [
      {
        status: 'upheld',
        decision_note: 'Same visitor, seconds apart',
        refunded: '20.00',
        refunded_subscribers: 2,
        earnings_cancelled: '16.00',
      },
    ]
    expect(await queryAs(m.advertiser.actor, outcome, [id])).toEqual(expected)
    expect(await queryAs(m.publisher.actor, outcome, [id])).toEqual(expected)
    expect(await queryAs(actors.otherAdvertiser, outcome, [id])).toEqual([])
    expect(
      await queryAs(m.publisher.actor, 'select * from public.dispute_subscriptions where dispute_id = $1', [id]),
    ).toEqual([])
    expect(
      await queryAs(
        m.advertiser.actor,
        'select count(*)::int as n from public.dispute_subscriptions where dispute_id = $1',
        [id],
      ),
    ).toEqual([{ n: 2 }])

    const emails = await db.query<{ user_id: string; data: Record<string, unknown> }>(
      "select user_id, data from public.notification_queue where template = 'dispute_decided' and data->>'note' = 'Same visitor, seconds apart'",
    )
    expect(emails.rows.map((e) => [e.user_id, e.data.side, e.data.decision, e.data.refunded]).sort()).toEqual(
      [
        [m.advertiser.id, 'advertiser', 'upheld', 20],
        [m.publisher.id, 'publisher', 'upheld', 16],
      ].sort(),
    )
    expect(
      await queryAs(
        actors.admin,
        "select old_status, new_status, reason from public.moderation_events where subject_type = 'dispute' and subject_id = $1",
        [id],
      ),
    ).toEqual([
      {
        old_status: 'open',
        new_status: 'upheld',
        reason: 'Same visitor, seconds apart (refunded 20.00 credits for 2 subscribers)',
      },
    ])
  })

  it('rejected: refunds nothing; a source dispute covers its subscribers still in screening', async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    const x = await countedSubscriber(m)
    const rejected = await open(m, 'I think these are not real people', [x])
    await answerWindowPasses(rejected)
    expect(await decide(rejected, 'rejected', 'They confirmed from their own inboxes')).toMatchObject({
      status: 'rejected',
      refunded: 0,
    })
    expect(await walletOf(m.advertiser.id)).toMatchObject({ held: '10.00' })

    const y = await countedSubscriber(m)
    const matured = await countedSubscriber(m)
    await db.query(
      `update public.wallet_transactions set available_at = now() - interval '1 minute' where subscription_id = $1`,
      [matured],
    )
    await db.query('select public.settle_matured_holds()')
    const bySource = await open(m, 'This whole source sends bought traffic', null, m.sourceId)
    expect(
      (
        await db.query('select subscription_id from public.dispute_subscriptions where dispute_id = $1 order by 1', [
          bySource,
        ])
      ).rows
        .map((r) => r.subscription_id)
        .sort(),
    ).toEqual([x, y].sort())
    await answerWindowPasses(bySource)
    expect(await decide(bySource, 'upheld', 'Bought traffic confirmed')).toMatchObject({
      refunded: 20,
      refunded_subscribers: 2,
    })
    // The matured one was paid for and stays paid for.
    expect(await walletOf(m.advertiser.id)).toMatchObject({ balance: '90.00', held: '0.00' })
    expect(await walletOf(m.publisher.id)).toMatchObject({ balance: '8.00', pending_earnings: '0.00' })
    await expectEarningsMatchCharges(m)
  })
})

describe('dispute evidence', () => {
  it('gives admins counts by reason, timings, repeated visitors and canonical-email collisions from SQL', async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    const a = await countedSubscriber(m)
    const b = await countedSubscriber(m)
    const id = await open(m, 'Confirmed suspiciously fast, all of them', [a, b])
    expect(await errorOf(m.advertiser.actor, 'select public.admin_dispute_evidence($1)', [id])).toBe(
      'Only an admin can do this',
    )
    expect(await errorOf(actors.admin, 'select public.admin_dispute_evidence($1)', [randomUUID()])).toBe(
      'Dispute not found',
    )
    const [{ e }] = (await queryAs<{ e: Record<string, unknown> }>(
      actors.admin,
      'select public.admin_dispute_evidence($1) as e',
      [id],
    )) as [{ e: Record<string, never> }]
    expect(e.subscriptions_by_reason).toEqual([{ reason: 'counted', count: 2 }])
    expect(e.clicks_by_reason).toEqual([{ reason: 'counted', count: 2 }])
    expect(e.timings).toMatchObject({ flagged: 2, under_10_seconds: 0 })
    expect(Number((e.timings as Record<string, number>).median_email_to_confirm_seconds)).toBeGreaterThanOrEqual(59)
    expect(e.repeated_visitors).toEqual([])
    expect(e.email_collisions).toEqual([])
    expect(
      (e.subscribers as { id: string; in_screening: boolean }[]).map((s) => [s.id, s.in_screening]).sort(),
    ).toEqual(
      [
        [a, true],
        [b, true],
      ].sort(),
    )
    await answerWindowPasses(id)
    await decide(id, 'rejected', 'Nothing unusual in the timings')
    const someone = await createUser('advertiser')
    expect(await errorOf(someone.actor, 'select * from public.disputes')).toBe('')
  })
})
