// Admin payout requests searched in the database (issue 23): admin_payout_requests finds requests by publisher
// email or name, transfer reference or Stripe's reason, filters by status and UTC dates, pages and counts; open
// requests first; it refuses a bad filter with a sentence, and everyone but an admin at aal2.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anon, errorOf, queryAs, testDb, user } from './helpers/db'
import { actors, createUser, ids, type NewUser } from './helpers/fixtures'

type Row = {
  publisher_email: string
  publisher_name: string | null
  amount: string
  status: string
  transfer_reference: string | null
  failure_reason: string | null
  total_count: string
  in_flight_count: string
  failed_count: string
}
const COLUMNS = `publisher_email, publisher_name, amount::text, status, transfer_reference, failure_reason,
  total_count::text, in_flight_count::text, failed_count::text`

let publisher: NewUser
let tag: string

async function payout(fields: { amount: number; status: string; created_at: string; ref?: string; reason?: string }) {
  const db = await testDb()
  await db.query(
    `insert into public.payout_requests (publisher_id, amount, status, created_at, transfer_reference, failure_reason,
       paid_at, failed_at)
     values ($1, $2, $3, $4, $5, $6, case when $3 = 'paid' then $4::timestamptz end,
       case when $3 = 'failed' then $4::timestamptz end)`,
    [publisher.id, fields.amount, fields.status, fields.created_at, fields.ref ?? null, fields.reason ?? null],
  )
}

beforeAll(async () => {
  publisher = await createUser('publisher')
  tag = randomUUID().slice(0, 8)
  const db = await testDb()
  await db.query('update public.profiles set full_name = $2 where id = $1', [publisher.id, `Payee ${tag}`])
  await payout({ amount: 50, status: 'paid', created_at: '2026-03-01T10:00:00Z', ref: `tr_${tag}_paid` })
  await payout({ amount: 60, status: 'failed', created_at: '2026-03-02T10:00:00Z', reason: `Account closed ${tag}` })
  await payout({ amount: 70, status: 'requested', created_at: '2026-03-03T23:30:00Z' })
  await payout({ amount: 80, status: 'canceled', created_at: '2026-03-04T10:00:00Z' })
})

// The rows above skip the ledger (a paid one has no payout row): gone again, so a file run after this one (the money
// invariants) finds the shared database's ledger consistent.
afterAll(async () => {
  await (await testDb()).query('delete from public.payout_requests where publisher_id = $1', [publisher.id])
})

const search = (args: string, params: unknown[] = []) =>
  queryAs<Row>(actors.admin, `select ${COLUMNS} from public.admin_payout_requests(${args})`, params)

describe('admin_payout_requests', () => {
  it('finds a publisher’s requests by email, open ones first, then newest, with the count', async () => {
    const rows = await search('$1', [publisher.email])
    expect(rows.map((r) => [r.status, r.amount])).toEqual([
      ['requested', '70.00'],
      ['failed', '60.00'],
      ['canceled', '80.00'],
      ['paid', '50.00'],
    ])
    expect(rows[0]).toMatchObject({
      publisher_email: publisher.email,
      publisher_name: `Payee ${tag}`,
      total_count: '4',
    })
  })

  it('searches by name, transfer reference and failure reason', async () => {
    expect((await search('$1', [`payee ${tag}`])).length).toBe(4)
    expect(await search('$1', [`tr_${tag}_paid`])).toEqual([
      expect.objectContaining({ status: 'paid', transfer_reference: `tr_${tag}_paid` }),
    ])
    expect(await search('$1', [`closed ${tag}`])).toEqual([
      expect.objectContaining({ status: 'failed', failure_reason: `Account closed ${tag}` }),
    ])
  })

  it('filters by status and by UTC days, and pages with the full count on every row', async () => {
    expect((await search(`$1, 'failed'`, [publisher.email])).map((r) => r.amount)).toEqual(['60.00'])
    // 2026-03-03 23:30 UTC is on the 3rd, whatever the server's zone.
    const third = await search(`$1, null, '2026-03-03', '2026-03-03'`, [publisher.email])
    expect(third.map((r) => r.amount)).toEqual(['70.00'])
    expect(await search(`$1, null, '2026-03-05', null`, [publisher.email])).toEqual([])
    const page = await search(`$1, null, null, null, 2, 2`, [publisher.email])
    expect(page.map((r) => r.amount)).toEqual(['80.00', '50.00'])
    expect(page.every((r) => r.total_count === '4')).toBe(true)
  })

  it('counts payouts in flight and failed across the marketplace, whatever the filters', async () => {
    const db = await testDb()
    const { rows } = await db.query<{ sending: string; failed: string }>(
      `select count(*) filter (where status = 'sending')::text as sending,
              count(*) filter (where status = 'failed')::text as failed from public.payout_requests`,
    )
    const [row] = await search(`$1, 'paid'`, [publisher.email])
    expect(row).toMatchObject({ in_flight_count: rows[0]!.sending, failed_count: rows[0]!.failed })
    expect(Number(row!.failed_count)).toBeGreaterThanOrEqual(1)
  })

  it('refuses a bad status or a reversed range with a sentence', async () => {
    expect(await errorOf(actors.admin, `select * from public.admin_payout_requests(null, 'lost')`)).toBe(
      'Choose a status from the list',
    )
    expect(
      await errorOf(actors.admin, `select * from public.admin_payout_requests(null, null, '2026-02-01', '2026-01-01')`),
    ).toBe('The start date must be on or before the end date')
  })

  it('refuses everyone but an admin at aal2', async () => {
    const sql = 'select * from public.admin_payout_requests()'
    expect(await errorOf(user(ids.admin, 'admin@growletter.test', 'aal1'), sql)).toBe(
      'Enter your two-factor code to use admin tools',
    )
    expect(await errorOf(actors.advertiser, sql)).toBe('Only an admin can do this')
    expect(await errorOf(publisher.actor, sql)).toBe('Only an admin can do this')
    expect(await errorOf(anon, sql)).toMatch(/permission denied/)
  })
})
