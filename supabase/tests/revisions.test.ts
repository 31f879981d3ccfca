// Revisions decided: the admins' queue shows each pending revision with the live values beside the proposed
// ones; a decision applies (or not) the change, records the note and emails the owner; nobody else reads the
// queue or decides.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../local/db/database'
import { anon, errorOf, queryAs, testDb } from './helpers/db'
import { actors } from './helpers/fixtures'
import { createMarket, type Market } from './helpers/market'

let db: Db
beforeAll(async () => {
  db = await testDb()
})

type QueueRow = {
  id: string
  subject_type: string
  subject_id: string
  subject_name: string
  owner_email: string
  changes: Record<string, unknown>
  current_values: Record<string, unknown>
  status: string
  review_note: string | null
}
const queue = (status = 'pending') =>
  queryAs<QueueRow>(actors.admin, 'select * from public.admin_revisions($1)', [status])

async function proposeEdits(m: Market) {
  await queryAs(
    m.publisher.actor,
    "update public.audience_sources set name = 'Renamed source', description = 'New words' where id = $1",
    [m.sourceId],
  )
  await queryAs(m.advertiser.actor, "update public.campaigns set name = 'Renamed newsletter' where id = $1", [
    m.campaignId,
  ])
}

describe('the revisions queue', () => {
  it('shows each pending revision with the live values of the fields it changes, oldest first', async () => {
    const m = await createMarket()
    await proposeEdits(m)
    const mine = (await queue()).filter((r) => [m.sourceId, m.campaignId].includes(r.subject_id))
    expect(mine.map((r) => [r.subject_type, r.subject_name, r.owner_email, r.changes, r.current_values])).toEqual([
      [
        'audience_source',
        'Test source',
        m.publisher.email,
        { name: 'Renamed source', description: 'New words' },
        { name: 'Test source', description: null },
      ],
      ['campaign', 'Test newsletter', m.advertiser.email, { name: 'Renamed newsletter' }, { name: 'Test newsletter' }],
    ])
    expect(await errorOf(actors.admin, 'select * from public.admin_revisions($1)', ['everything'])).toBe(
      'Show pending, approved or rejected revisions',
    )
  })

  it('is for admins only', async () => {
    const m = await createMarket()
    await proposeEdits(m)
    for (const actor of [m.publisher.actor, m.advertiser.actor]) {
      expect(await errorOf(actor, 'select * from public.admin_revisions()')).toMatch(/admin/i)
      const id = (
        await db.query<{ id: string }>(
          "select id from public.content_revisions where author_id = $1 and status = 'pending'",
          [actor.role === 'authenticated' ? actor.id : ''],
        )
      ).rows[0]!.id
      expect(await errorOf(actor, "select public.admin_decide_revision($1, 'approved')", [id])).toMatch(/admin/i)
    }
    expect(await errorOf(anon, 'select * from public.admin_revisions()')).toMatch(/permission denied/)
  })
})

describe('deciding a revision', () => {
  it('approving applies the change, records the note and emails the owner', async () => {
    const m = await createMarket()
    await proposeEdits(m)
    const source = (await queue()).find((r) => r.subject_id === m.sourceId)!
    expect(
      await queryAs(actors.admin, "select public.admin_decide_revision($1, 'approved', 'Fine') as r", [source.id]),
    ).toEqual([{ r: { id: source.id, status: 'approved' } }])
    expect(
      await queryAs(anon, 'select name, description from public.audience_sources where id = $1', [m.sourceId]),
    ).toEqual([{ name: 'Renamed source', description: 'New words' }])
    // The owner reads the outcome with the note; the queue moves it to the decided list.
    expect(
      await queryAs(m.publisher.actor, 'select status, review_note from public.content_revisions where id = $1', [
        source.id,
      ]),
    ).toEqual([{ status: 'approved', review_note: 'Fine' }])
    expect((await queue()).some((r) => r.id === source.id)).toBe(false)
    expect((await queue('approved')).find((r) => r.id === source.id)).toMatchObject({ review_note: 'Fine' })
    const emails = await db.query<{ user_id: string; data: Record<string, unknown> }>(
      "select user_id, data from public.notification_queue where template = 'revision_decided' and dedupe_key = $1",
      [`revision_decided:${source.id}`],
    )
    expect(emails.rows).toEqual([
      {
        user_id: m.publisher.id,
        data: {
          subject_type: 'audience_source',
          name: 'Test source',
          decision: 'approved',
          note: 'Fine',
          fields: ['description', 'name'],
        },
      },
    ])
  })

  it('rejecting keeps the live version, needs a reason and emails the owner the reason', async () => {
    const m = await createMarket()
    await proposeEdits(m)
    const campaign = (await queue()).find((r) => r.subject_id === m.campaignId)!
    expect(
      await errorOf(actors.admin, "select public.admin_decide_revision($1, 'rejected', '  ')", [campaign.id]),
    ).toBe('Give a reason when rejecting')
    expect(
      await errorOf(actors.admin, "select public.admin_decide_revision($1, 'rejected', $2)", [
        campaign.id,
        'x'.repeat(1001),
      ]),
    ).toBe('Keep the note under 1,000 characters')
    await queryAs(actors.admin, "select public.admin_decide_revision($1, 'rejected', 'Misleading name')", [campaign.id])
    expect(await queryAs(anon, 'select name from public.campaigns where id = $1', [m.campaignId])).toEqual([
      { name: 'Test newsletter' },
    ])
    const emails = await db.query<{ user_id: string; data: Record<string, unknown> }>(
      'select user_id, data from public.notification_queue where dedupe_key = $1',
      [`revision_decided:${campaign.id}`],
    )
    expect(emails.rows).toEqual([
      {
        user_id: m.advertiser.id,
        data: {
          subject_type: 'campaign',
          name: 'Test newsletter',
          decision: 'rejected',
          note: 'Misleading name',
          fields: ['name'],
        },
      },
    ])
    expect(await errorOf(actors.admin, "select public.admin_decide_revision($1, 'approved')", [randomUUID()])).toBe(
      'Revision not found',
    )
  })
})
