// The advertiser's wallet statement filtered and exported (issue 23 point 9): wallet_statement narrows by the
// statement's own kind, by status and by UTC days, counts the matches (total_count), returns up to 10,000 rows for
// a CSV export, refuses a wrong argument with a sentence, and never shows anyone else's rows, whatever the filter.
// Both engines (PGlite, and PostgreSQL with TEST_DATABASE_URL).
import { randomUUID } from 'node:crypto'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../embedded-backend/db/database'
import { errorOf, queryAs, service, testDb, type Actor } from './helpers/db'
import { ledgerMismatches } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe, type Market } from './helpers/market'
import { Constants } from '../../src/types/database.types'

let db: Db
beforeAll(async () => {
  db = await testDb()
})
afterEach(async () => {
  expect(await ledgerMismatches()).toEqual([])
})

type Row = { id: string; kind: string; status: string; occurred_at: string; total_count: string }
type Filters = { kind?: string; status?: string; from?: string; to?: string; limit?: number; offset?: number }

const SQL = `select id, kind, status, occurred_at::text, total_count::text
  from public.wallet_statement(p_limit => $1, p_offset => $2, p_kind => $3, p_status => $4, p_from => $5::date,
    p_to => $6::date)`
const statement = (actor: Actor, f: Filters = {}) =>
  queryAs<Row>(actor, SQL, [
    f.limit ?? 20,
    f.offset ?? 0,
    f.kind ?? null,
    f.status ?? null,
    f.from ?? null,
    f.to ?? null,
  ])
const refusal = (actor: Actor, f: Filters) =>
  errorOf(actor, SQL, [f.limit ?? 20, f.offset ?? 0, f.kind ?? null, f.status ?? null, f.from ?? null, f.to ?? null])
const kinds = (rows: Row[]) => rows.map((r) => `${r.kind}/${r.status}`).sort()

async function charged(m: Market) {
  const email = `filters-${randomUUID()}@example.com`
  const { tokens } = await subscribe(email, [m.campaignId], { sourceId: m.sourceId })
  await ageSubscription(email)
  expect(await confirm(tokens[0]!, email)).toMatchObject({ counted: true })
  return (await db.query<{ id: string }>('select id from public.newsletter_subscriptions where email = $1', [email]))
    .rows[0]!.id
}

/** An advertiser with a deposit, a charge settled, one refunded, one on hold, and a credit; dates set by hand. */
async function statementOfEveryKind() {
  const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
  const settled = await charged(m)
  const refunded = await charged(m)
  const held = await charged(m)
  await db.query(
    "update public.wallet_transactions set available_at = now() - interval '1 minute' where subscription_id = $1",
    [settled],
  )
  await db.query('select public.settle_matured_holds()')
  await queryAs(service, 'select public.refund_subscription($1, $2)', [refunded, 'fraud'])
  await queryAs(service, 'select public.increment_wallet_balance($1, 5)', [m.advertiser.id])
  // UTC days at their edges: the deposit in the last minute of 10 March, the settled charge in the first of
  // 11 March, the refunded one on 12 March; the charge on hold and the credit stay today.
  const at = (sql: string, when: string, params: unknown[]) =>
    db.query(`update public.wallet_transactions set created_at = '${when}'::timestamptz where ${sql}`, params)
  await at("user_id = $1 and type = 'deposit'", '2026-03-10 23:59:00+00', [m.advertiser.id])
  await at("subscription_id = $1 and type = 'hold'", '2026-03-11 00:00:30+00', [settled])
  await at("subscription_id = $1 and type = 'hold'", '2026-03-12 12:00:00+00', [refunded])
  return { m, held }
}

describe('wallet_statement filters', () => {
  it('narrows by kind and by status, and counts only the matches', async () => {
    const { m } = await statementOfEveryKind()
    const actor = m.advertiser.actor
    const all = await statement(actor)
    expect(kinds(all)).toEqual(
      ['credit/completed', 'charge/charged', 'charge/on_hold', 'charge/refunded', 'deposit/completed'].sort(),
    )
    expect(all.every((r) => r.total_count === '5')).toBe(true)

    const charges = await statement(actor, { kind: 'charge' })
    expect(kinds(charges)).toEqual(['charge/charged', 'charge/on_hold', 'charge/refunded'])
    expect(charges.every((r) => r.total_count === '3')).toBe(true)

    const deposits = await statement(actor, { kind: 'deposit' })
    expect(kinds(deposits)).toEqual(['deposit/completed'])
    expect(deposits[0]!.total_count).toBe('1')

    expect(kinds(await statement(actor, { status: 'on_hold' }))).toEqual(['charge/on_hold'])
    expect(kinds(await statement(actor, { status: 'refunded' }))).toEqual(['charge/refunded'])
    expect(kinds(await statement(actor, { status: 'completed' }))).toEqual(['credit/completed', 'deposit/completed'])
    expect(kinds(await statement(actor, { kind: 'charge', status: 'charged' }))).toEqual(['charge/charged'])
    // Nothing matches: no rows, so no count either (the SPA reads 0).
    expect(await statement(actor, { kind: 'payout' })).toEqual([])
    expect(await statement(actor, { kind: 'deposit', status: 'on_hold' })).toEqual([])
  })

  it('filters by UTC days, both ends included', async () => {
    const { m } = await statementOfEveryKind()
    const actor = m.advertiser.actor
    expect(kinds(await statement(actor, { from: '2026-03-10', to: '2026-03-10' }))).toEqual(['deposit/completed'])
    expect(kinds(await statement(actor, { from: '2026-03-11', to: '2026-03-11' }))).toEqual(['charge/charged'])
    const span = await statement(actor, { from: '2026-03-10', to: '2026-03-12' })
    expect(kinds(span)).toEqual(['charge/charged', 'charge/refunded', 'deposit/completed'])
    expect(span.every((r) => r.total_count === '3')).toBe(true)
    // Open-ended on either side.
    expect(kinds(await statement(actor, { to: '2026-03-11' }))).toEqual(['charge/charged', 'deposit/completed'])
    expect(kinds(await statement(actor, { from: '2026-03-12' }))).toEqual(
      ['credit/completed', 'charge/on_hold', 'charge/refunded'].sort(),
    )
    // With a kind: the charges of 11 and 12 March, newest first.
    const dated = await statement(actor, { kind: 'charge', from: '2026-03-11', to: '2026-03-12' })
    expect(dated.map((r) => r.status)).toEqual(['refunded', 'charged'])
  })

  it('pages the matches and returns up to 10,000 rows for an export, with the count', async () => {
    const { m } = await statementOfEveryKind()
    const actor = m.advertiser.actor
    const first = await statement(actor, { kind: 'charge', limit: 2 })
    const second = await statement(actor, { kind: 'charge', limit: 2, offset: 2 })
    expect(first).toHaveLength(2)
    expect(second).toHaveLength(1)
    expect([...first, ...second].every((r) => r.total_count === '3')).toBe(true)
    expect(new Set([...first, ...second].map((r) => r.id)).size).toBe(3)
    // Past the end: no rows.
    expect(await statement(actor, { kind: 'charge', limit: 2, offset: 4 })).toEqual([])
    // The export's call: MONEY_EXPORT_LIMIT rows at most, in one call.
    const exported = await statement(actor, { limit: 10_000 })
    expect(exported).toHaveLength(5)
    expect(exported[0]!.total_count).toBe('5')
  })

  it('refuses a wrong argument with a sentence a person can act on', async () => {
    const { m } = await statementOfEveryKind()
    const actor = m.advertiser.actor
    expect(await refusal(actor, { limit: 10_001 })).toBe('Ask for 1 to 10,000 rows at a time')
    expect(await refusal(actor, { limit: 0 })).toBe('Ask for 1 to 10,000 rows at a time')
    expect(await refusal(actor, { offset: -1 })).toBe('The page cannot be before the first')
    // 'hold' is a ledger type but never a statement row (a hold is shown as its charge).
    for (const kind of ['hold', 'charges', 'Deposit', ''])
      expect(await refusal(actor, { kind }), kind).toBe('Choose a transaction type from the list')
    for (const status of ['held', 'On hold', ''])
      expect(await refusal(actor, { status }), status).toBe('Choose a status from the list')
    expect(await refusal(actor, { from: '2026-03-12', to: '2026-03-11' })).toBe(
      'The start date must be on or before the end date',
    )
    expect(await errorOf(actor, "select * from public.wallet_statement(p_from => 'yesterday-ish')")).toMatch(
      /invalid input syntax for type date/,
    )
  })

  it('accepts exactly the statement’s own words: charge or a ledger type but hold; a charge’s or a ledger status', async () => {
    // Every word the function takes, built from the generated enums: the wallet's selects offer these
    // (statementKindOptions / statementStatusOptions in src/lib/vocabulary.ts, pinned by src/lib/vocabulary.test.ts)
    // less a publisher's own earning and payout, which the function still takes for a publisher's statement.
    const { transaction_type, transaction_status } = Constants.public.Enums
    const { m } = await statementOfEveryKind()
    for (const kind of ['charge', ...transaction_type.filter((t) => t !== 'hold')])
      expect(await refusal(m.advertiser.actor, { kind }), kind).toBe('')
    for (const status of ['on_hold', 'charged', 'refunded', ...transaction_status])
      expect(await refusal(m.advertiser.actor, { status }), status).toBe('')
  })

  it('never shows another user’s rows, whatever the filters', async () => {
    const { m } = await statementOfEveryKind()
    const other = await createMarket({ deposit: 50, price: 10, budget: 100 })
    await charged(other)
    const ownIds = async (userId: string) =>
      new Set(
        (
          await db.query<{ id: string }>('select id from public.wallet_transactions where user_id = $1', [userId])
        ).rows.map((r) => r.id),
      )
    const mine = await ownIds(other.advertiser.id)
    for (const f of [{}, { kind: 'charge' }, { kind: 'deposit' }, { status: 'completed' }, { limit: 10_000 }]) {
      const rows = await statement(other.advertiser.actor, f)
      expect(rows.length, JSON.stringify(f)).toBeGreaterThan(0)
      expect(rows.every((r) => mine.has(r.id))).toBe(true)
      expect(Number(rows[0]!.total_count)).toBe(rows.length)
    }
    // The first advertiser's dates hold nothing of the second's; the publisher sees earnings, never charges.
    expect(await statement(other.advertiser.actor, { from: '2026-03-10', to: '2026-03-12' })).toEqual([])
    expect(await statement(m.publisher.actor, { kind: 'charge' })).toEqual([])
    expect(kinds(await statement(m.publisher.actor, { kind: 'earning' }))).toHaveLength(3)
    // The service role has no auth.uid(): an empty statement, never everybody's.
    expect(await statement(service, { limit: 10_000 })).toEqual([])
  })
})
