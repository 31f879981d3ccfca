// Review: publishers and advertisers edit their own rows but never codes, owners, spend or statuses;
// admins approve, reject and ban with a reason kept in the audit log; visitors can write to /contact.
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { PRICE_MESSAGES } from '../functions/_shared/rules/price.ts'
import { anon, errorOf, queryAs } from './helpers/db'
import { actors, createUser, ids } from './helpers/fixtures'
import { createMarket } from './helpers/market'

describe('audience sources', () => {
  it("generates the code of a publisher's new source, waits for review, and keeps code, owner and status fixed", async () => {
    const p = await createUser('publisher')
    // A chosen code is not the API's to write (grants.test.ts shows the trigger would replace it anyway).
    expect(
      await errorOf(
        p.actor,
        `insert into public.audience_sources (publisher_id, name, platform, unified_code) values ($1, 'Mine', 'x', 'demo-approved-2')`,
        [p.id],
      ),
    ).toBe('permission denied for table audience_sources')
    const [source] = await queryAs<{ id: string; unified_code: string; magic_link: string; status: string }>(
      p.actor,
      `insert into public.audience_sources (publisher_id, name, platform) values ($1, 'My feed', 'x')
       returning id, unified_code, magic_link, status`,
      [p.id],
    )
    expect(source!.unified_code).not.toBe('demo-approved-2')
    expect(source!.unified_code).toMatch(/^[a-z0-9]{6,}$/)
    expect(source!.magic_link).toBe(`magic/${source!.unified_code}`)
    expect(source!.status).toBe('pending_review')
    const change = (set: string) =>
      errorOf(p.actor, `update public.audience_sources set ${set} where id = $1`, [source!.id])
    // Not the API's columns to write; the triggers behind the grants are tested in grants.test.ts.
    expect(await change(`unified_code = 'mine'`)).toBe('permission denied for table audience_sources')
    expect(await change(`status = 'approved'`)).toBe('permission denied for table audience_sources')
    expect(await change(`publisher_id = '${ids.publisher}'`)).toBe('permission denied for table audience_sources')
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
    // Not the API's columns to write; the triggers behind the grants are tested in grants.test.ts.
    expect(await change('budget_spent = 0.5')).toBe('permission denied for table campaigns')
    expect(await change(`status = 'completed'`)).toBe('permission denied for table campaigns')
    expect(await change(`review_note = 'fine'`)).toBe('permission denied for table campaigns')
    expect(await change(`advertiser_id = '${ids.otherAdvertiser}'`)).toBe('permission denied for table campaigns')
    const [draft] = await queryAs<{ id: string }>(
      m.advertiser.actor,
      `insert into public.campaigns (advertiser_id, name, status) values ($1, 'Draft letter', 'draft') returning id`,
      [m.advertiser.id],
    )
    expect(
      await errorOf(m.advertiser.actor, `update public.campaigns set status = 'pending_review' where id = $1`, [
        draft!.id,
      ]),
    ).toBe('permission denied for table campaigns')
    const submit = (actor: typeof m.advertiser.actor, id: string) =>
      errorOf(actor, 'select public.submit_campaign_for_review($1)', [id])
    expect(await submit(actors.otherAdvertiser, draft!.id)).toBe('You can only submit your own campaigns')
    expect(await submit(m.advertiser.actor, m.campaignId)).toBe('Only a draft can be sent for review')
    expect(await queryAs(m.advertiser.actor, 'select public.submit_campaign_for_review($1) as r', [draft!.id])).toEqual(
      [{ r: { id: draft!.id, status: 'pending_review' } }],
    )
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
    ).toBe(PRICE_MESSAGES.tooLow)
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
    expect(await set('rejected')).toBe('Give a reason when rejecting or banning')
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
