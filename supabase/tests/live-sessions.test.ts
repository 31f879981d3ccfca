// Live sessions for money and rights (issue 21, attack 5). A signed-out, password-changed or reuse-revoked
// session's access token kept working for up to an hour: the database checked only its signature. Money and
// admin functions, and REST reads of money tables, now also need the token's session in auth.sessions.
// (The same attack through the auth server and supabase-js is in supabase/tests/api/trust-money.test.ts.)
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { errorOf, inSession, queryAs, testDb, type Actor } from './helpers/db'
import { actors, ids } from './helpers/fixtures'
import { createMarket } from './helpers/market'

const ENDED = 'Your session has ended. Sign in again.'

async function startSession(userId: string, aal: 'aal1' | 'aal2') {
  const db = await testDb()
  const id = randomUUID()
  await db.query('insert into auth.sessions (id, user_id, aal) values ($1, $2, $3)', [id, userId, aal])
  return id
}
async function endSession(id: string) {
  const db = await testDb()
  await db.query('delete from auth.sessions where id = $1', [id])
}

const adminCalls: Array<[string, unknown[]]> = [
  ['select * from public.admin_list_users()', []],
  ["select public.admin_set_user_type($1, 'admin')", [ids.publisher]],
  ['select public.admin_mark_payout_paid($1, $2)', [ids.payoutRequested, 'TR-1']],
  ["select public.admin_refund_subscription($1, 'x')", [randomUUID()]],
  ["select public.admin_set_source_status($1, 'banned', 'x')", [ids.sourceApproved]],
  ["select public.admin_set_campaign_status($1, 'paused', 'x')", [ids.campaignActive]],
  ["select public.admin_decide_revision($1, 1, 'approved')", [randomUUID()]],
  ['select * from public.admin_revisions()', []],
  ["select public.decide_dispute($1, 'upheld', 'x')", [randomUUID()]],
  ['select * from public.admin_audit_log()', []],
  ['select * from public.admin_marketplace_totals()', []],
  ['select * from public.admin_dispute_evidence($1)', [randomUUID()]],
]

describe('attack: a token whose session ended calls money and admin functions', () => {
  it('refuses every admin function to an admin whose aal2 session was signed out, with words', async () => {
    const session = await startSession(ids.admin, 'aal2')
    const admin = inSession(actors.admin, session)
    expect(await queryAs(admin, 'select count(*)::int as n from public.admin_list_users()')).not.toEqual([])
    await endSession(session)
    for (const [sql, params] of adminCalls) expect(await errorOf(admin, sql, params), sql).toBe(ENDED)
    // Admin-only rows disappear too: is_admin() is false without a live session.
    expect(await queryAs(admin, 'select id from public.moderation_events limit 1')).toEqual([])
    expect(await queryAs(admin, 'select id from public.contact_messages limit 1')).toEqual([])
    expect(await queryAs(admin, 'select public.is_admin() as a')).toEqual([{ a: false }])
  })

  it('refuses payouts, disputes, balances, subscriber lists and wallet reads to a publisher or advertiser signed out elsewhere', async () => {
    const m = await createMarket()
    const publisherSession = await startSession(m.publisher.id, 'aal1')
    const advertiserSession = await startSession(m.advertiser.id, 'aal1')
    const publisher = inSession(m.publisher.actor, publisherSession)
    const advertiser = inSession(m.advertiser.actor, advertiserSession)
    // While the sessions live, the calls reach their own rules.
    expect(await errorOf(publisher, 'select public.request_payout(50)')).toBe(
      'You can only withdraw available earnings (0.00 credits available)',
    )
    expect(await queryAs(advertiser, 'select balance from public.wallets')).toEqual([{ balance: '100.00' }])
    await endSession(publisherSession)
    await endSession(advertiserSession)

    expect(await errorOf(publisher, 'select public.request_payout(50)')).toBe(ENDED)
    expect(await errorOf(publisher, 'select * from public.publisher_balance()')).toBe(ENDED)
    expect(await errorOf(advertiser, 'select * from public.advertiser_balance()')).toBe(ENDED)
    expect(await errorOf(advertiser, 'select * from public.wallet_statement()')).toBe(ENDED)
    expect(await errorOf(advertiser, 'select * from public.campaign_week_figures()')).toBe(ENDED)
    expect(await errorOf(advertiser, "select public.cancel_deposit('cs_test_x')")).toBe(ENDED)
    expect(await errorOf(advertiser, "select public.open_dispute('They are bots', null, $1)", [m.sourceId])).toBe(ENDED)
    expect(await errorOf(advertiser, 'select * from public.campaign_subscribers($1)', [m.campaignId])).toBe(ENDED)
    expect(await errorOf(advertiser, 'select * from public.campaign_subscribers_export($1)', [m.campaignId])).toBe(
      ENDED,
    )
    // Webhook endpoints carry every new subscriber's address: no new one, no new secret, no redirect.
    const [endpoint] = await queryAs<{ id: string }>(
      m.advertiser.actor,
      'select id from public.create_webhook_endpoint($1)',
      ['https://hooks.example.com/mine'],
    )
    expect(
      await errorOf(advertiser, 'select * from public.create_webhook_endpoint($1)', ['https://attacker.example/hook']),
    ).toBe(ENDED)
    expect(await errorOf(advertiser, 'select public.rotate_webhook_secret($1)', [endpoint!.id])).toBe(ENDED)
    expect(
      await queryAs(
        advertiser,
        `update public.webhook_endpoints set url = 'https://attacker.example/hook' where id = $1 returning id`,
        [endpoint!.id],
      ),
    ).toEqual([])
    expect(
      await queryAs(m.advertiser.actor, 'select url from public.webhook_endpoints where id = $1', [endpoint!.id]),
    ).toEqual([{ url: 'https://hooks.example.com/mine' }])
    for (const table of ['wallets', 'wallet_balances', 'wallet_transactions', 'deposits']) {
      expect(await queryAs(advertiser, `select 1 from public.${table}`), table).toEqual([])
    }
    expect(await queryAs(publisher, 'select 1 from public.payout_requests')).toEqual([])
  })

  it("refuses a token without a session id, and one naming someone else's session", async () => {
    const m = await createMarket()
    const noSession: Actor = inSession(m.publisher.actor, '')
    expect(await errorOf(noSession, 'select public.request_payout(50)')).toBe(ENDED)
    const othersSession = await startSession(m.advertiser.id, 'aal1')
    expect(await errorOf(inSession(m.publisher.actor, othersSession), 'select public.request_payout(50)')).toBe(ENDED)
    expect(await errorOf(inSession(m.publisher.actor, 'not-a-uuid'), 'select * from public.publisher_balance()')).toBe(
      ENDED,
    )
  })
})

describe('honest: live sessions', () => {
  it('a fresh sign-in (a new session) reads and moves money as before', async () => {
    const m = await createMarket()
    const fresh = inSession(m.advertiser.actor, await startSession(m.advertiser.id, 'aal1'))
    expect(await queryAs(fresh, 'select available, balance from public.advertiser_balance()')).toEqual([
      { available: '100.00', balance: '100.00' },
    ])
    expect(await queryAs(fresh, 'select balance from public.wallet_balances')).toEqual([{ balance: '100.00' }])
    const admin = inSession(actors.admin, await startSession(ids.admin, 'aal2'))
    expect((await queryAs(admin, 'select * from public.admin_marketplace_totals()')).length).toBe(1)
    // Visitors and the service role have no session to check.
    expect(await queryAs({ role: 'anon' }, 'select public.session_is_live() as live')).toEqual([{ live: true }])
    expect(
      await queryAs({ role: 'service_role' }, 'select count(*)::int as n from public.publisher_balance()'),
    ).toEqual([{ n: 1 }])
  })
})
