// Profiles, immutable columns and admin review: signup decides advertiser or publisher (never admin),
// only admins change user types and statuses (audit-logged), owners and codes never change.
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { anon, errorOf, queryAs, testDb } from './helpers/db'
import { actors, createUser, ids } from './helpers/fixtures'
import { createMarket } from './helpers/market'

async function profile(id: string) {
  const db = await testDb()
  return (
    await db.query<Record<string, unknown>>(
      'select user_type, email::text, full_name from public.profiles where id = $1',
      [id],
    )
  ).rows[0]
}

describe('profiles', () => {
  it('creates the profile from signup metadata, accepting only advertiser or publisher', async () => {
    expect((await profile((await createUser('publisher')).id))?.user_type).toBe('publisher')
    expect((await profile((await createUser('advertiser')).id))?.user_type).toBe('advertiser')
    const db = await testDb()
    for (const requested of ['admin', 'superuser', '']) {
      const id = randomUUID()
      await db.query(
        `insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, jsonb_build_object('user_type', $3::text))`,
        [id, `${id}@example.com`, requested],
      )
      expect((await profile(id))?.user_type, requested).toBe('advertiser')
    }
    const id = randomUUID()
    await db.query(
      `insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, '{"first_name":"Ana","last_name":"Ruiz"}')`,
      [id, `${id}@example.com`],
    )
    expect(await profile(id)).toEqual({ user_type: 'advertiser', email: `${id}@example.com`, full_name: 'Ana Ruiz' })
  })

  it('lets users edit their names but never their type, id or email', async () => {
    const u = await createUser('publisher')
    await queryAs(u.actor, `update public.profiles set full_name = 'New Name', first_name = 'New' where id = $1`, [
      u.id,
    ])
    expect((await profile(u.id))?.full_name).toBe('New Name')
    expect(await errorOf(u.actor, `update public.profiles set user_type = 'admin' where id = $1`, [u.id])).toMatch(
      /permission denied/,
    )
    expect(await errorOf(u.actor, `update public.profiles set email = 'x@example.com' where id = $1`, [u.id])).toMatch(
      /permission denied/,
    )
    // The guard also holds where column rights would not (the service role and future grants).
    const db = await testDb()
    await db.query('grant update (user_type, email, id) on public.profiles to authenticated')
    try {
      expect(await errorOf(u.actor, `update public.profiles set user_type = 'admin' where id = $1`, [u.id])).toBe(
        'Only an admin can change a user type',
      )
      expect(await errorOf(u.actor, `update public.profiles set email = 'x@example.com' where id = $1`, [u.id])).toBe(
        'Change your email from your account settings',
      )
      expect(await errorOf(u.actor, `update public.profiles set id = $2 where id = $1`, [u.id, randomUUID()])).toBe(
        'A profile id cannot be changed',
      )
    } finally {
      await db.query('revoke update (user_type, email, id) on public.profiles from authenticated')
    }
  })

  it('follows the auth email when it changes', async () => {
    const u = await createUser('advertiser')
    const db = await testDb()
    await db.query('update auth.users set email = $2 where id = $1', [u.id, `changed-${u.email}`])
    expect((await profile(u.id))?.email).toBe(`changed-${u.email}`)
  })
})

describe('admin_set_user_type', () => {
  it('changes a user type for admins only and writes the audit log', async () => {
    const u = await createUser('advertiser')
    expect(await errorOf(u.actor, 'select public.admin_set_user_type($1, $2)', [u.id, 'admin'])).toBe(
      'Only an admin can do this',
    )
    expect(await errorOf(anon, 'select public.admin_set_user_type($1, $2)', [u.id, 'admin'])).toMatch(
      /permission denied/,
    )
    await queryAs(actors.admin, 'select public.admin_set_user_type($1, $2, $3)', [u.id, 'publisher', 'Runs a podcast'])
    expect((await profile(u.id))?.user_type).toBe('publisher')
    const log = await queryAs(
      actors.admin,
      `select actor_id, old_status, new_status, reason from public.moderation_events where subject_id = $1`,
      [u.id],
    )
    expect(log).toEqual([
      { actor_id: ids.admin, old_status: 'advertiser', new_status: 'publisher', reason: 'Runs a podcast' },
    ])
  })

  it('refuses unknown types, unknown users and an admin demoting themselves', async () => {
    expect(await errorOf(actors.admin, 'select public.admin_set_user_type($1, $2)', [ids.advertiser, 'owner'])).toBe(
      'Choose advertiser, publisher or admin',
    )
    expect(await errorOf(actors.admin, 'select public.admin_set_user_type($1, $2)', [randomUUID(), 'publisher'])).toBe(
      'User not found',
    )
    expect(await errorOf(actors.admin, 'select public.admin_set_user_type($1, $2)', [ids.admin, 'publisher'])).toBe(
      'Admins cannot remove their own admin rights',
    )
  })

  it('lists users with their emails for admins only', async () => {
    const rows = await queryAs<{ email: string }>(
      actors.admin,
      `select email from public.admin_list_users('publisher@growletter')`,
    )
    expect(rows).toEqual([{ email: 'publisher@growletter.test' }])
    expect(await errorOf(actors.publisher, 'select * from public.admin_list_users()')).toBe('Only an admin can do this')
  })
})

describe('audience sources', () => {
  it("generates the code of a publisher's new source, waits for review, and keeps code, owner and status fixed", async () => {
    const p = await createUser('publisher')
    const [source] = await queryAs<{ id: string; unified_code: string; magic_link: string; status: string }>(
      p.actor,
      `insert into public.audience_sources (publisher_id, name, platform, unified_code) values ($1, 'My feed', 'x', 'demo-approved-2')
       returning id, unified_code, magic_link, status`,
      [p.id],
    )
    expect(source!.unified_code).not.toBe('demo-approved-2')
    expect(source!.unified_code).toMatch(/^[a-z0-9]{6,}$/)
    expect(source!.magic_link).toBe(`magic/${source!.unified_code}`)
    expect(source!.status).toBe('pending_review')
    const change = (set: string) =>
      errorOf(p.actor, `update public.audience_sources set ${set} where id = $1`, [source!.id])
    expect(await change(`unified_code = 'mine'`)).toBe('A unified code cannot be changed')
    expect(await change(`status = 'approved'`)).toBe("Only an admin can change a source's status")
    expect(await change(`publisher_id = '${ids.publisher}'`)).toMatch(/A source cannot change owner|row-level security/)
    expect(
      await errorOf(
        p.actor,
        `insert into public.audience_sources (publisher_id, name, status) values ($1, 'Sneaky', 'approved')`,
        [p.id],
      ),
    ).toMatch(/row-level security/)
  })

  it('lets admins approve, reject and ban with a reason, audit-logged and visible to the publisher', async () => {
    const m = await createMarket()
    const set = (status: string, reason: string | null = null, actor = actors.admin) =>
      errorOf(actor, 'select public.admin_set_source_status($1, $2, $3)', [m.sourceId, status, reason])
    expect(await set('approved', null, m.publisher.actor)).toBe('Only an admin can do this')
    expect(await set('shadowbanned')).toBe('Unknown source status')
    expect(await set('banned')).toBe('Give a reason when rejecting or banning')
    expect(
      await errorOf(actors.admin, 'select public.admin_set_source_status($1, $2)', [randomUUID(), 'approved']),
    ).toBe('Source not found')
    expect(await set('banned', 'Bought traffic')).toBe('')
    const [row] = await queryAs(
      m.publisher.actor,
      'select status, review_note from public.audience_sources where id = $1',
      [m.sourceId],
    )
    expect(row).toEqual({ status: 'banned', review_note: 'Bought traffic' })
    const log = await queryAs(
      actors.admin,
      'select old_status, new_status from public.moderation_events where subject_id = $1',
      [m.sourceId],
    )
    expect(log).toEqual([{ old_status: 'approved', new_status: 'banned' }])
  })
})

describe('campaigns', () => {
  it("keeps spend, owner and status out of the advertiser's hands except draft → review", async () => {
    const m = await createMarket()
    const change = (set: string) =>
      errorOf(m.advertiser.actor, `update public.campaigns set ${set} where id = $1`, [m.campaignId])
    expect(await change('budget_spent = 0.5')).toBe('Spend is recorded by the platform')
    expect(await change(`status = 'completed'`)).toBe("Only an admin can change a campaign's status")
    expect(await change(`review_note = 'fine'`)).toBe("Only an admin can change a campaign's status")
    expect(await change(`advertiser_id = '${ids.otherAdvertiser}'`)).toMatch(
      /A campaign cannot change owner|row-level security/,
    )
    const [draft] = await queryAs<{ id: string }>(
      m.advertiser.actor,
      `insert into public.campaigns (advertiser_id, name, status) values ($1, 'Draft letter', 'draft') returning id`,
      [m.advertiser.id],
    )
    await queryAs(m.advertiser.actor, `update public.campaigns set status = 'pending_review' where id = $1`, [
      draft!.id,
    ])
    expect(
      await errorOf(
        m.advertiser.actor,
        `insert into public.campaigns (advertiser_id, name, status) values ($1, 'Live now', 'active')`,
        [m.advertiser.id],
      ),
    ).toMatch(/row-level security/)
    expect(
      await errorOf(
        m.advertiser.actor,
        `insert into public.campaigns (advertiser_id, name, price_per_subscriber) values ($1, 'Cheap', 0.10)`,
        [m.advertiser.id],
      ),
    ).toMatch(/check constraint/)
  })

  it('lets an advertiser pause and resume only their own active or paused campaign', async () => {
    const m = await createMarket()
    const pause = (paused: boolean, actor = m.advertiser.actor, id = m.campaignId) =>
      errorOf(actor, 'select public.set_campaign_paused($1, $2)', [id, paused])
    expect(await pause(true, actors.otherAdvertiser)).toBe('You can only pause your own campaigns')
    expect(await pause(false)).toBe('Only paused campaigns can be resumed')
    expect(await pause(true)).toBe('')
    expect(await pause(true)).toBe('Only active campaigns can be paused')
    expect(await pause(false)).toBe('')
    expect(await errorOf(anon, 'select public.set_campaign_paused($1, true)', [m.campaignId])).toMatch(
      /permission denied/,
    )
  })

  it('lets admins review campaigns with a reason, audit-logged', async () => {
    const m = await createMarket()
    const set = (status: string, reason: string | null = null, actor = actors.admin, id = m.campaignId) =>
      errorOf(actor, 'select public.admin_set_campaign_status($1, $2, $3)', [id, status, reason])
    expect(await set('active', null, m.advertiser.actor)).toBe('Only an admin can do this')
    expect(await set('live')).toBe('Unknown campaign status')
    expect(await set('rejected')).toBe('Give a reason when rejecting')
    expect(await set('active', null, actors.admin, randomUUID())).toBe('Campaign not found')
    expect(await set('rejected', 'Misleading claims')).toBe('')
    const log = await queryAs(
      actors.admin,
      'select new_status, reason from public.moderation_events where subject_id = $1',
      [m.campaignId],
    )
    expect(log).toEqual([{ new_status: 'rejected', reason: 'Misleading claims' }])
  })
})

describe('contact messages', () => {
  it("accepts a visitor's message within bounds and refuses an invalid one", async () => {
    const insert = (mail: string, message: string) =>
      errorOf(
        anon,
        `insert into public.contact_messages (name, email, subject, message) values ('Kim', $1, 'Hi', $2)`,
        [mail, message],
      )
    expect(await insert('kim@example.com', 'Hello there')).toBe('')
    expect(await insert('not-an-email', 'Hello')).toMatch(/check constraint/)
    expect(await insert('kim@example.com', 'x'.repeat(5001))).toMatch(/check constraint/)
    expect(await insert('kim@example.com', '   ')).toMatch(/check constraint/)
  })
})
