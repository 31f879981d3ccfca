// Admins act on anything: ban and reinstate an approved campaign (or source); the audit log reads as names;
// marketplace totals are exact past the API's 1,000-row page; an advertiser's disputable subscribers.
import { randomUUID } from 'node:crypto'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../embedded-backend/db/database'
import { errorOf, queryAs, testDb } from './helpers/db'
import { actors, ledgerMismatches } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe } from './helpers/market'

let db: Db
beforeAll(async () => {
  db = await testDb()
})
afterEach(async () => {
  expect(await ledgerMismatches()).toEqual([])
})

describe('acting on anything', () => {
  it('bans an approved campaign with a reason (hidden at once, reservations released) and reinstates it', async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    await subscribe(`pending-${randomUUID()}@example.com`, [m.campaignId], { sourceId: m.sourceId })
    const reserved = async () =>
      (
        await db.query<{ r: string }>('select budget_reserved::text as r from public.campaigns where id = $1', [
          m.campaignId,
        ])
      ).rows[0]!.r
    expect(await reserved()).toBe('10.00')
    const set = (status: string, reason: string | null) =>
      errorOf(actors.admin, 'select public.admin_set_campaign_status($1, $2, $3)', [m.campaignId, status, reason])
    expect(await set('banned', ' ')).toBe('Give a reason when rejecting or banning')
    expect(
      await errorOf(m.advertiser.actor, 'select public.admin_set_campaign_status($1, $2, $3)', [
        m.campaignId,
        'banned',
        'x',
      ]),
    ).toBe('Only an admin can do this')
    expect(await set('banned', 'Misleading claims')).toBe('')
    expect(await reserved()).toBe('0.00')
    expect(
      await queryAs(actors.otherAdvertiser, 'select id from public.campaigns where id = $1', [m.campaignId]),
    ).toEqual([])
    expect(await set('active', 'Claims fixed')).toBe('')
    expect(
      await queryAs(m.advertiser.actor, 'select status, review_note from public.campaigns where id = $1', [
        m.campaignId,
      ]),
    ).toEqual([{ status: 'active', review_note: 'Claims fixed' }])
    const emails = await db.query<{ data: { status: string } }>(
      "select data from public.notification_queue where user_id = $1 and template = 'campaign_reviewed'",
      [m.advertiser.id],
    )
    expect(emails.rows.map((r) => r.data.status).sort()).toEqual(['banned', 'reinstated'])
  })

  it('shows the audit log with names, not ids, a page at a time with the total', async () => {
    const m = await createMarket({ deposit: 0 })
    await queryAs(actors.admin, 'select public.admin_set_source_status($1, $2, $3)', [
      m.sourceId,
      'banned',
      'Click farm',
    ])
    await queryAs(actors.admin, 'select public.admin_set_source_status($1, $2, $3)', [
      m.sourceId,
      'approved',
      'Appeal accepted',
    ])
    const page = await queryAs<{
      actor_name: string
      subject_name: string
      new_status: string
      reason: string
      total_count: string
    }>(
      actors.admin,
      `select actor_name, subject_name, new_status, reason, total_count::text from public.admin_audit_log(2, 0, 'audience_source')`,
    )
    expect(page.map((r) => [r.actor_name, r.subject_name, r.new_status, r.reason])).toEqual([
      ['Alex Admin', 'Test source', 'approved', 'Appeal accepted'],
      ['Alex Admin', 'Test source', 'banned', 'Click farm'],
    ])
    expect(Number(page[0]!.total_count)).toBeGreaterThanOrEqual(2)
    const next = await queryAs<{ subject_name: string }>(
      actors.admin,
      `select subject_name from public.admin_audit_log(2, 2, 'audience_source')`,
    )
    expect(next.length).toBeGreaterThan(0)
    expect(await errorOf(m.publisher.actor, 'select * from public.admin_audit_log()')).toBe('Only an admin can do this')
  })
})

describe('marketplace totals', () => {
  it('are exact past 1,000 rows and equal to the ledger', async () => {
    const before = (
      await queryAs<Record<string, string>>(
        actors.admin,
        'select wallets::text, balance::text, open_payout_count::text from public.admin_marketplace_totals()',
      )
    )[0]!
    // 1,200 wallets of 1.25 credits each: more than one API page (max_rows 1000).
    const tag = randomUUID().slice(0, 8)
    await db.query(
      `insert into auth.users (id, email, email_confirmed_at, raw_user_meta_data)
       select gen_random_uuid(), 'bulk-' || $1 || '-' || g || '@test.growletter.test', now(), '{"user_type":"advertiser"}'
       from generate_series(1, 1200) g`,
      [tag],
    )
    await db.query(
      `select private.post_ledger(p.id, 1.25, 'credit', 'completed', 'Bulk test credit', 'bulk:' || p.id)
       from public.profiles p where p.email like 'bulk-' || $1 || '-%'`,
      [tag],
    )
    const after = (
      await queryAs<Record<string, string>>(
        actors.admin,
        'select wallets::text, balance::text, open_payout_count::text from public.admin_marketplace_totals()',
      )
    )[0]!
    expect(Number(after.wallets) - Number(before.wallets)).toBe(1200)
    expect((Number(after.balance) - Number(before.balance)).toFixed(2)).toBe('1500.00')
    const ledger = await db.query<{ total: string }>(
      "select sum(amount)::numeric(14, 2)::text as total from public.wallet_transactions where status = 'completed'",
    )
    expect(after.balance).toBe(ledger.rows[0]!.total)
    expect(await errorOf(actors.advertiser, 'select * from public.admin_marketplace_totals()')).toBe(
      'Only an admin can do this',
    )
  })
})

describe('disputable subscribers', () => {
  it("lists the advertiser's own charged subscribers still in screening, and nobody else's", async () => {
    const m = await createMarket({ deposit: 100, price: 10, budget: 100 })
    const email = `flag-${randomUUID()}@example.com`
    const { tokens } = await subscribe(email, [m.campaignId], { sourceId: m.sourceId })
    await ageSubscription(email)
    await confirm(tokens[0]!, email)
    expect(
      await queryAs(
        m.advertiser.actor,
        'select email, source_name, in_dispute from public.disputable_subscribers($1)',
        [m.sourceId],
      ),
    ).toEqual([{ email, source_name: 'Test source', in_dispute: false }])
    expect(
      await queryAs(actors.otherAdvertiser, 'select email from public.disputable_subscribers($1)', [m.sourceId]),
    ).toEqual([])
  })
})
