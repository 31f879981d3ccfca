// Disputes hear both sides (issue 37, PRODUCT "Fair to both sides"): the publisher is emailed when a dispute about
// their source opens, sees the readers (never their emails) and the earnings at stake, and answers once within 72
// hours, through answer_dispute only as that source's publisher; the admin decides after the answer or the 72
// hours, never before; the money in dispute waits for the decision instead of settling when screening ends.
import { randomUUID } from 'node:crypto'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../embedded-backend/db/database'
import { anon, errorOf, inSession, queryAs, testDb } from './helpers/db'
import { actors, createUser, ledgerMismatches } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe, walletOf, type Market } from './helpers/market'

let db: Db
beforeAll(async () => {
  db = await testDb()
})
afterEach(async () => {
  expect(await ledgerMismatches()).toEqual([])
})

async function countedSubscriber(m: Market) {
  const email = `answer-${randomUUID()}@example.com`
  const { tokens } = await subscribe(email, [m.campaignId], { sourceId: m.sourceId })
  await ageSubscription(email)
  expect(await confirm(tokens[0]!, email)).toMatchObject({ counted: true })
  return (await db.query<{ id: string }>('select id from public.newsletter_subscriptions where email = $1', [email]))
    .rows[0]!.id
}

const REASON = 'These readers never opened a single email'
const ANSWER = 'I shared the link in my weekly post; these are my own readers.'
const open = (m: Market, ids: string[]) =>
  queryAs<{ id: string }>(m.advertiser.actor, 'select public.open_dispute($1, $2) as id', [REASON, ids]).then(
    (r) => r[0]!.id,
  )
const answer = (m: Market, id: string, text = ANSWER, links: string[] | null = null) =>
  queryAs(m.publisher.actor, 'select public.answer_dispute($1, $2, $3) as r', [id, text, links])
const answerError = (m: Market, id: string, text = ANSWER, links: string[] | null = null) =>
  errorOf(m.publisher.actor, 'select public.answer_dispute($1, $2, $3)', [id, text, links])
const decideError = (id: string, decision = 'rejected') =>
  errorOf(actors.admin, 'select public.decide_dispute($1, $2, $3)', [id, decision, 'Both sides read'])
/** The 72 hours pass (the deadline moved back, as time passing would). */
const deadlinePasses = (id: string) =>
  db.query(`update public.disputes set answer_due_at = now() - interval '1 minute' where id = $1`, [id])

describe('a dispute opens', () => {
  it('emails the publisher the newsletter, the readers, the earnings at stake and the 72-hour deadline', async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    const id = await open(m, [await countedSubscriber(m), await countedSubscriber(m)])
    const [row] = (
      await db.query<{ hours: number }>(
        'select extract(epoch from answer_due_at - created_at) / 3600 as hours from public.disputes where id = $1',
        [id],
      )
    ).rows
    expect(Number(row!.hours)).toBe(72)
    const emails = await db.query<{ user_id: string; data: Record<string, unknown>; dedupe_key: string }>(
      `select user_id, data, dedupe_key from public.notification_queue where template = 'dispute_opened' and data->>'dispute_id' = $1`,
      [id],
    )
    expect(emails.rows).toHaveLength(1)
    const [email] = emails.rows
    expect(email!.user_id).toBe(m.publisher.id)
    expect(email!.dedupe_key).toBe(`dispute_opened:${id}`)
    expect(email!.data).toMatchObject({
      dispute_id: id,
      kind: 'subscribers',
      source_name: 'Test source',
      campaign_name: 'Test newsletter',
      reason: REASON,
      readers: 2,
      // The publisher's side: 80% of the 20.00 charged.
      earnings: 16,
    })
    expect(new Date(email!.data.answer_due_at as string).getTime()).toBeGreaterThan(Date.now() + 71 * 3600_000)
  })
})

describe("the publisher's view", () => {
  it('shows the publisher their dispute, its readers without emails and the money at stake; nobody else', async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    const [a, b] = [await countedSubscriber(m), await countedSubscriber(m)]
    const id = await open(m, [a, b])
    const mine = await queryAs(
      m.publisher.actor,
      'select id, kind, status, source_name, newsletters, reason, can_answer, readers, readers_on_hold, earnings_at_stake::text, answer from public.publisher_disputes()',
    )
    expect(mine).toEqual([
      {
        id,
        kind: 'subscribers',
        status: 'open',
        source_name: 'Test source',
        newsletters: 'Test newsletter',
        reason: REASON,
        can_answer: true,
        readers: 2,
        readers_on_hold: 2,
        earnings_at_stake: '16.00',
        answer: null,
      },
    ])
    expect(await queryAs(m.publisher.actor, 'select id from public.publisher_disputes($1)', [id])).toEqual([{ id }])
    const readers = await queryAs<Record<string, unknown>>(
      m.publisher.actor,
      'select * from public.publisher_dispute_readers($1)',
      [id],
    )
    expect(readers.map((r) => [r.subscription_id, r.campaign_name, r.earning, r.state]).sort()).toEqual(
      [
        [a, 'Test newsletter', '8.00', 'on_hold'],
        [b, 'Test newsletter', '8.00', 'on_hold'],
      ].sort(),
    )
    // Never the reader's address: no column carries it.
    expect(Object.keys(readers[0]!).sort()).toEqual([
      'campaign_name',
      'confirmed_at',
      'earning',
      'state',
      'subscription_id',
    ])
    expect(JSON.stringify(readers)).not.toContain('@example.com')

    const stake = 'select readers, readers_on_hold, charged::text, earnings::text from public.dispute_at_stake($1)'
    const expected = [{ readers: 2, readers_on_hold: 2, charged: '20.00', earnings: '16.00' }]
    for (const actor of [m.publisher.actor, m.advertiser.actor, actors.admin])
      expect(await queryAs(actor, stake, [id])).toEqual(expected)

    const stranger = await createUser('publisher')
    expect(await queryAs(stranger.actor, 'select id from public.publisher_disputes()')).toEqual([])
    expect(await queryAs(stranger.actor, 'select * from public.publisher_dispute_readers($1)', [id])).toEqual([])
    expect(await queryAs(m.advertiser.actor, 'select id from public.publisher_disputes()')).toEqual([])
    expect(await errorOf(stranger.actor, stake, [id])).toBe('Dispute not found')
    expect(await errorOf(anon, 'select * from public.publisher_disputes()')).toBe(
      'permission denied for function publisher_disputes',
    )
    expect(await errorOf(anon, stake, [id])).toBe('permission denied for function dispute_at_stake')
  })
})

describe('answering', () => {
  it("takes the source's publisher's answer once, with evidence links, in words a person can act on", async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    const id = await open(m, [await countedSubscriber(m)])
    const notYours = 'Only the publisher of the disputed source can answer this dispute'
    const call = 'select public.answer_dispute($1, $2)'
    expect(await errorOf(m.advertiser.actor, call, [id, ANSWER])).toBe(notYours)
    expect(await errorOf((await createUser('publisher')).actor, call, [id, ANSWER])).toBe(notYours)
    expect(await errorOf(actors.admin, call, [id, ANSWER])).toBe(notYours)
    expect(await errorOf(m.publisher.actor, call, [randomUUID(), ANSWER])).toBe(notYours)
    expect(await errorOf(anon, call, [id, ANSWER])).toBe('permission denied for function answer_dispute')
    expect(await errorOf(inSession(m.publisher.actor, randomUUID()), call, [id, ANSWER])).toBe(
      'Your session has ended. Sign in again.',
    )

    expect(await answerError(m, id, '   too short   ')).toBe('Write your answer in at least 20 characters')
    expect(await answerError(m, id, 'x'.repeat(4001))).toBe('Keep your answer under 4,000 characters')
    expect(
      await answerError(m, id, ANSWER, [
        'https://a.example',
        'https://b.example',
        'https://c.example',
        'https://d.example',
        'https://e.example',
        'https://f.example',
      ]),
    ).toBe('Add at most 5 evidence links')
    expect(await answerError(m, id, ANSWER, [`https://example.com/${'x'.repeat(500)}`])).toBe(
      'Keep each evidence link under 500 characters',
    )
    for (const bad of [
      'http://example.com/post',
      'javascript:alert(1)',
      'https://localhost/x',
      'example.com',
      'https://ex ample.com',
    ])
      expect(await answerError(m, id, ANSWER, [bad]), bad).toBe(
        'Evidence links must be full addresses that start with https://',
      )
    // Nothing was kept by the refusals.
    expect(await queryAs(m.publisher.actor, 'select answered_at from public.disputes where id = $1', [id])).toEqual([
      { answered_at: null },
    ])

    await answer(m, id, `  ${ANSWER}  `, [
      ' https://x.com/pat/status/1 ',
      '',
      'https://youtu.be/abc?t=12',
      'https://x.com/pat/status/1',
    ])
    const sides = 'select reason, answer, answer_links from public.disputes where id = $1'
    const both = [
      { reason: REASON, answer: ANSWER, answer_links: ['https://x.com/pat/status/1', 'https://youtu.be/abc?t=12'] },
    ]
    // Both sides, and the admin, read both sides' words.
    for (const actor of [m.publisher.actor, m.advertiser.actor, actors.admin])
      expect(await queryAs(actor, sides, [id])).toEqual(both)
    expect(await answerError(m, id, 'A second thought, longer than twenty')).toBe(
      'You already answered this dispute; the admin reads your answer as you sent it',
    )
    expect(await queryAs(m.publisher.actor, 'select can_answer from public.publisher_disputes($1)', [id])).toEqual([
      { can_answer: false },
    ])
    // The table stays read-only to both sides: the answer goes through answer_dispute alone.
    expect(
      await errorOf(
        m.publisher.actor,
        `update public.disputes set answer = 'Changed after the fact, sneaky' where id = $1`,
        [id],
      ),
    ).toBe('permission denied for table disputes')

    // Answered: the admin may decide at once, and the answer closes with the decision.
    expect(await decideError(id)).toBe('')
    expect(await answerError(m, id)).toBe('This dispute was already decided, so it can no longer be answered')
  })

  it('refuses an answer after the 72 hours, and the admin decision before them unless the publisher answered', async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    const id = await open(m, [await countedSubscriber(m)])
    const [{ due }] = (
      await db.query<{ due: string }>(
        `select to_char(answer_due_at at time zone 'UTC', 'Mon FMDD, YYYY, FMHH12:MI AM') || ' UTC' as due from public.disputes where id = $1`,
        [id],
      )
    ).rows as [{ due: string }]
    expect(due).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M UTC$/)
    expect(await decideError(id, 'upheld')).toBe(
      'The publisher has until DUE to answer. Decide once they answer or the 72 hours pass.'.replace('DUE', due),
    )
    expect(await walletOf(m.advertiser.id)).toMatchObject({ held: '10.00' })

    await deadlinePasses(id)
    expect(await answerError(m, id)).toBe(
      'The 72 hours to answer this dispute are over; an admin decides with what is on file',
    )
    expect(
      await queryAs(m.publisher.actor, 'select can_answer, answer from public.publisher_disputes($1)', [id]),
    ).toEqual([{ can_answer: false, answer: null }])
    expect(await decideError(id, 'upheld')).toBe('')
    expect(await walletOf(m.advertiser.id)).toMatchObject({ held: '0.00', balance: '100.00' })
  })
})

describe('the money in dispute', () => {
  it('does not settle while the dispute is open, and settles as it would have once it is rejected', async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    const [disputed, other] = [await countedSubscriber(m), await countedSubscriber(m)]
    const id = await open(m, [disputed])
    // A week passes for both subscribers: the one in dispute stays held, the other settles.
    await db.query(
      `update public.wallet_transactions set available_at = now() - interval '1 minute' where subscription_id = $1 and status = 'pending'`,
      [other],
    )
    await db.query(
      `update private.dispute_frozen_ledger set available_at = now() - interval '1 minute' where dispute_id = $1`,
      [id],
    )
    await db.query('select public.settle_matured_holds()')
    const statuses = async (subscription: string) =>
      (
        await db.query<{ type: string; status: string }>(
          `select type, status from public.wallet_transactions where subscription_id = $1 and type in ('hold', 'earning') order by type`,
          [subscription],
        )
      ).rows.map((r) => `${r.type} ${r.status}`)
    expect(await statuses(other)).toEqual(['earning completed', 'hold canceled'])
    expect(await statuses(disputed)).toEqual(['earning pending', 'hold pending'])
    expect(await walletOf(m.advertiser.id)).toMatchObject({ balance: '90.00', held: '10.00' })

    await deadlinePasses(id)
    expect(await decideError(id, 'rejected')).toBe('')
    // The settlement date it had comes back: already past, so the next run settles it.
    expect(
      (await db.query('select count(*)::int as n from private.dispute_frozen_ledger where dispute_id = $1', [id])).rows,
    ).toEqual([{ n: 0 }])
    await db.query('select public.settle_matured_holds()')
    expect(await statuses(disputed)).toEqual(['earning completed', 'hold canceled'])
    expect(await walletOf(m.advertiser.id)).toMatchObject({ balance: '80.00', held: '0.00' })
    expect(await walletOf(m.publisher.id)).toMatchObject({ balance: '16.00', pending_earnings: '0.00' })
  })

  it('is still refundable when the dispute is upheld after the 7-day screening would have ended', async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    const disputed = await countedSubscriber(m)
    const id = await open(m, [disputed])
    await db.query(
      `update private.dispute_frozen_ledger set available_at = now() - interval '1 day' where dispute_id = $1`,
      [id],
    )
    await db.query('select public.settle_matured_holds()')
    await answer(m, id)
    expect(
      await queryAs(actors.admin, 'select public.decide_dispute($1, $2, $3) as r', [id, 'upheld', 'Bought traffic']),
    ).toEqual([{ r: { id, status: 'upheld', refunded: 10, refunded_subscribers: 1, earnings_cancelled: 8 } }])
    expect(await walletOf(m.advertiser.id)).toMatchObject({ balance: '100.00', held: '0.00' })
    expect(await walletOf(m.publisher.id)).toMatchObject({ balance: '0.00', pending_earnings: '0.00' })
    expect(await queryAs(m.publisher.actor, 'select state from public.publisher_dispute_readers($1)', [id])).toEqual([
      { state: 'refunded' },
    ])
    // Each side's decision email leads to the dispute.
    const decided = await db.query<{ user_id: string; dispute: string }>(
      `select user_id, data->>'dispute_id' as dispute from public.notification_queue where template = 'dispute_decided' and data->>'dispute_id' = $1`,
      [id],
    )
    expect(decided.rows.map((r) => r.user_id).sort()).toEqual([m.advertiser.id, m.publisher.id].sort())
  })
})
