// The admin back office (issue 23 point 7): the contact inbox, a user's page (money, sessions, suspension) and the
// ledger and deposits searched in the database. Every function: an admin at aal2 may, an admin at aal1 and everyone
// else may not.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../embedded-backend/db/database'
import { anon, errorOf, inSession, queryAs, testDb, user } from './helpers/db'
import { actors, createUser, ids } from './helpers/fixtures'
import { createMarket } from './helpers/market'

let db: Db
beforeAll(async () => {
  db = await testDb()
})

const adminAtAal1 = user(ids.admin, 'admin@growletter.test', 'aal1')
const TWO_FACTOR = 'Enter your two-factor code to use admin tools'
const ONLY_ADMIN = 'Only an admin can do this'

/** Every new admin function refuses an admin at aal1, an advertiser, a publisher and a visitor. */
describe.each([
  ['admin_contact_messages', 'select * from public.admin_contact_messages()', []],
  ['admin_set_contact_message_handled', 'select public.admin_set_contact_message_handled($1, true)', [randomUUID()]],
  ['admin_user', 'select * from public.admin_user($1)', [ids.advertiser]],
  ['admin_advertiser_balance', 'select * from public.admin_advertiser_balance($1)', [ids.advertiser]],
  ['admin_publisher_balance', 'select * from public.admin_publisher_balance($1)', [ids.publisher]],
  ['admin_user_sessions', 'select * from public.admin_user_sessions($1)', [ids.advertiser]],
  ['admin_set_user_suspended', 'select public.admin_set_user_suspended($1, true, $2)', [ids.advertiser, 'x']],
  ['admin_ledger', 'select * from public.admin_ledger()', []],
  ['admin_deposits', 'select * from public.admin_deposits()', []],
] as const)('%s', (_name, sql, params) => {
  it('refuses everyone but an admin at aal2', async () => {
    expect(await errorOf(adminAtAal1, sql, [...params])).toBe(TWO_FACTOR)
    expect(await errorOf(actors.advertiser, sql, [...params])).toBe(ONLY_ADMIN)
    expect(await errorOf(actors.publisher, sql, [...params])).toBe(ONLY_ADMIN)
    expect(await errorOf(anon, sql, [...params])).toMatch(/permission denied/)
  })
})

describe('contact inbox', () => {
  it('lists messages newest first with the total, and keeps the handled state', async () => {
    const tag = randomUUID().slice(0, 8)
    const first = await db.query<{ id: string }>(
      `insert into public.contact_messages (name, email, subject, message, created_at)
       values ('Kim', $1, 'Older ' || $2, 'First', now() + interval '1 day') returning id`,
      [`kim-${tag}@example.com`, tag],
    )
    const second = await db.query<{ id: string }>(
      `insert into public.contact_messages (name, email, subject, message, created_at)
       values ('Pat', $1, 'Newer ' || $2, 'Second', now() + interval '2 days') returning id`,
      [`pat-${tag}@example.com`, tag],
    )
    type Row = { id: string; subject: string; email: string; handled_at: string | null; total_count: string }
    const page = await queryAs<Row>(
      actors.admin,
      `select id, subject, email, handled_at, total_count::text from public.admin_contact_messages('all', 2, 0)`,
    )
    expect(page.map((r) => r.subject)).toEqual([`Newer ${tag}`, `Older ${tag}`])
    expect(page[1]!.email).toBe(`kim-${tag}@example.com`)
    expect(Number(page[0]!.total_count)).toBeGreaterThanOrEqual(2)

    const handled = await queryAs<{ at: string }>(
      actors.admin,
      'select public.admin_set_contact_message_handled($1, true)::text as at',
      [second.rows[0]!.id],
    )
    expect(handled[0]!.at).not.toBeNull()
    const unhandled = await queryAs<{ id: string }>(
      actors.admin,
      `select id from public.admin_contact_messages('unhandled', 100, 0)`,
    )
    expect(unhandled.map((r) => r.id)).toContain(first.rows[0]!.id)
    expect(unhandled.map((r) => r.id)).not.toContain(second.rows[0]!.id)
    const done = await queryAs<{ id: string }>(
      actors.admin,
      `select id from public.admin_contact_messages('handled', 100, 0)`,
    )
    expect(done.map((r) => r.id)).toContain(second.rows[0]!.id)

    await queryAs(actors.admin, 'select public.admin_set_contact_message_handled($1, false)', [second.rows[0]!.id])
    const back = await db.query('select handled_at from public.contact_messages where id = $1', [second.rows[0]!.id])
    expect(back.rows).toEqual([{ handled_at: null }])

    expect(await errorOf(actors.admin, `select * from public.admin_contact_messages('spam')`)).toBe(
      'Choose all, unhandled or handled messages',
    )
    expect(
      await errorOf(actors.admin, 'select public.admin_set_contact_message_handled($1, true)', [randomUUID()]),
    ).toBe('Message not found')
    expect(
      await errorOf(actors.admin, 'select public.admin_set_contact_message_handled($1, null)', [first.rows[0]!.id]),
    ).toBe('Say whether the message is handled')
  })
})

describe("a user's page", () => {
  it("shows the user's money from the same functions the owner sees", async () => {
    const m = await createMarket({ deposit: 100 })
    const own = await queryAs(m.advertiser.actor, 'select * from public.advertiser_balance()')
    const seen = await queryAs(actors.admin, 'select * from public.admin_advertiser_balance($1)', [m.advertiser.id])
    expect(seen).toEqual(own)
    expect(seen[0]).toMatchObject({ balance: '100.00' })
    const ownEarnings = await queryAs(m.publisher.actor, 'select * from public.publisher_balance()')
    expect(await queryAs(actors.admin, 'select * from public.admin_publisher_balance($1)', [m.publisher.id])).toEqual(
      ownEarnings,
    )
    const profile = await queryAs<{ email: string; user_type: string; suspended_until: string | null }>(
      actors.admin,
      'select email, user_type, suspended_until from public.admin_user($1)',
      [m.advertiser.id],
    )
    expect(profile).toEqual([{ email: m.advertiser.email, user_type: 'advertiser', suspended_until: null }])
    expect(await errorOf(actors.admin, 'select * from public.admin_user($1)', [randomUUID()])).toBe('User not found')
  })

  it('suspends (sessions end, money refused) and reinstates with a reason in the audit log', async () => {
    const u = await createUser('advertiser')
    // Acting once creates the live session a signed-in token has.
    expect(await queryAs(u.actor, 'select available::text from public.advertiser_balance()')).toEqual([
      { available: '0.00' },
    ])
    const sessions = await queryAs<{ id: string }>(actors.admin, 'select id from public.admin_user_sessions($1)', [
      u.id,
    ])
    expect(sessions).toHaveLength(1)

    const suspend = (on: boolean, reason: string | null) =>
      errorOf(actors.admin, 'select public.admin_set_user_suspended($1, $2, $3)', [u.id, on, reason])
    expect(await suspend(true, '  ')).toBe('Give a reason')
    expect(await suspend(true, 'x'.repeat(1001))).toBe('Keep the reason under 1,000 characters')
    expect(await suspend(null as unknown as boolean, 'x')).toBe('Say whether to suspend or reinstate')
    expect(await suspend(false, 'Nothing to lift')).toBe('This user is not suspended')
    expect(await errorOf(actors.admin, 'select public.admin_set_user_suspended($1, true, $2)', [ids.admin, 'x'])).toBe(
      'Admins cannot suspend themselves',
    )
    expect(await suspend(true, 'Chargebacks')).toBe('')
    expect(await suspend(true, 'Again')).toBe('This user is already suspended')

    expect(await queryAs(actors.admin, 'select id from public.admin_user_sessions($1)', [u.id])).toEqual([])
    // Told why and how to appeal (PRODUCT "Fair to both sides"), not that the session ended.
    expect(await errorOf(u.actor, 'select * from public.advertiser_balance()')).toBe(
      'Your account is suspended. Contact us to appeal.',
    )
    // Even a session the auth server had issued before the ban is not live while suspended.
    const sid = randomUUID()
    await db.query('insert into auth.sessions (id, user_id) values ($1, $2)', [sid, u.id])
    expect(await errorOf(inSession(u.actor, sid), 'select * from public.advertiser_balance()')).toBe(
      'Your account is suspended. Contact us to appeal.',
    )
    const banned = await queryAs<{ suspended: boolean }>(
      actors.admin,
      'select suspended_until is not null as suspended from public.admin_user($1)',
      [u.id],
    )
    expect(banned).toEqual([{ suspended: true }])

    expect(await suspend(false, 'Resolved with the bank')).toBe('')
    expect(await queryAs(inSession(u.actor, sid), 'select available::text from public.advertiser_balance()')).toEqual([
      { available: '0.00' },
    ])
    const log = await queryAs<{ old_status: string; new_status: string; reason: string }>(
      actors.admin,
      `select old_status, new_status, reason from public.moderation_events
       where subject_type = 'profile' and subject_id = $1 order by created_at, new_status desc`,
      [u.id],
    )
    expect(log).toEqual([
      { old_status: 'active', new_status: 'suspended', reason: 'Chargebacks' },
      { old_status: 'suspended', new_status: 'active', reason: 'Resolved with the bank' },
    ])
  })
})

describe('money search', () => {
  it('filters the ledger by user, type, status and dates in the database, and pages', async () => {
    const m = await createMarket({ deposit: 0 })
    const ref = `search-${randomUUID()}`
    await db.query('select public.credit_deposit($1, 40, $2)', [m.advertiser.id, ref])
    await db.query('select public.credit_deposit($1, 60, $2)', [m.advertiser.id, `${ref}-b`])
    type Row = { user_email: string; amount: string; type: string; reference: string; total_count: string }
    const byEmail = await queryAs<Row>(
      actors.admin,
      `select user_email, amount::text, type, reference, total_count::text
       from public.admin_ledger($1, 'deposit', 'completed', null, null, 1, 0)`,
      [m.advertiser.email],
    )
    expect(byEmail).toHaveLength(1)
    expect(byEmail[0]).toMatchObject({ user_email: m.advertiser.email, amount: '60.00', total_count: '2' })
    const byRef = await queryAs<Row>(actors.admin, 'select reference from public.admin_ledger($1)', [`${ref}-b`])
    expect(byRef).toEqual([{ reference: `${ref}-b` }])
    expect(
      await queryAs(actors.admin, `select id from public.admin_ledger($1, 'payout')`, [m.advertiser.email]),
    ).toEqual([])
    expect(
      await queryAs(actors.admin, `select id from public.admin_ledger($1, null, null, '2000-01-01', '2000-01-31')`, [
        m.advertiser.email,
      ]),
    ).toEqual([])
    const all = await queryAs(
      actors.admin,
      'select id from public.admin_ledger($1, null, null, null, null, 10000, 0)',
      [m.advertiser.email],
    )
    expect(all).toHaveLength(2)
    expect(await errorOf(actors.admin, `select * from public.admin_ledger(null, 'gift')`)).toBe(
      'Choose a transaction type from the list',
    )
    expect(await errorOf(actors.admin, `select * from public.admin_ledger(null, null, 'lost')`)).toBe(
      'Choose a status from the list',
    )
    expect(
      await errorOf(actors.admin, `select * from public.admin_ledger(null, null, null, '2026-02-01', '2026-01-01')`),
    ).toBe('The start date must be on or before the end date')
  })

  it('filters deposits by user and status', async () => {
    const m = await createMarket({ deposit: 0 })
    await db.query(
      `insert into public.deposits (user_id, amount, status, stripe_session_id) values ($1, 25, 'pending', $2)`,
      [m.advertiser.id, `cs_test_${randomUUID()}`],
    )
    type Row = { user_email: string; amount: string; status: string }
    const rows = await queryAs<Row>(
      actors.admin,
      `select user_email, amount::text, status from public.admin_deposits($1, 'pending')`,
      [m.advertiser.email],
    )
    expect(rows).toEqual([{ user_email: m.advertiser.email, amount: '25.00', status: 'pending' }])
    expect(
      await queryAs(actors.admin, `select id from public.admin_deposits($1, 'completed')`, [m.advertiser.email]),
    ).toEqual([])
    expect(await errorOf(actors.admin, `select * from public.admin_deposits(null, 'lost')`)).toBe(
      'Choose a status from the list',
    )
  })
})
