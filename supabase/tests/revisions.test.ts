// Revisions decided: the admins' queue shows each pending revision with the live values beside the proposed
// ones and its version; a decision names the version the admin read and applies (or not) exactly that, records the
// note and emails the owner; an edit after the admin read it is a new version, and a decision on the old one is
// refused (issue 37); nobody else reads the queue or decides. Both engines (PGlite, and PostgreSQL with
// TEST_DATABASE_URL); on PostgreSQL the edit and the decision also run truly side by side.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { Db } from '../../embedded-backend/db/database'
import { anon, as, errorOf, queryAs, testDb, type Actor } from './helpers/db'
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
  version: number
}
const queue = (status = 'pending') =>
  queryAs<QueueRow>(actors.admin, 'select * from public.admin_revisions($1)', [status])

/** The call the Revisions page makes (named arguments, as PostgREST sends them). */
const DECIDE =
  'select public.admin_decide_revision(p_revision_id => $1, p_version => $2, p_decision => $3, p_note => $4) as r'
const decide = (id: string, version: number, decision: string, note: string | null = null, actor = actors.admin) =>
  queryAs<{ r: unknown }>(actor, DECIDE, [id, version, decision, note])
const refusalOf = (id: string, version: number, decision: string, note: string | null = null, actor = actors.admin) =>
  errorOf(actor, DECIDE, [id, version, decision, note])

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
      expect(await refusalOf(id, 1, 'approved', null, actor)).toMatch(/admin/i)
    }
    expect(await errorOf(anon, 'select * from public.admin_revisions()')).toMatch(/permission denied/)
  })
})

describe('deciding a revision', () => {
  it('approving applies the change, records the note and emails the owner', async () => {
    const m = await createMarket()
    await proposeEdits(m)
    const source = (await queue()).find((r) => r.subject_id === m.sourceId)!
    expect(source.version).toBe(1)
    expect(await decide(source.id, 1, 'approved', 'Fine')).toEqual([
      { r: { id: source.id, status: 'approved', version: 1 } },
    ])
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
    expect(await refusalOf(campaign.id, 1, 'rejected', '  ')).toBe('Give a reason when rejecting')
    expect(await refusalOf(campaign.id, 1, 'rejected', 'x'.repeat(1001))).toBe('Keep the note under 1,000 characters')
    await decide(campaign.id, 1, 'rejected', 'Misleading name')
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
    expect(await refusalOf(randomUUID(), 1, 'approved')).toBe('Revision not found')
  })
})

const EDITED = 'This change was edited after you opened it. Review the new version.'

/** The SQLSTATE a statement run as the actor fails with (PostgREST answers PTxyz with HTTP xyz). */
async function sqlStateOf(actor: Actor, sql: string, params: unknown[]) {
  try {
    await queryAs(actor, sql, params)
    return ''
  } catch (error) {
    return String((error as { code?: unknown }).code)
  }
}

const renameSource = (m: Market, set: string) =>
  queryAs(m.publisher.actor, `update public.audience_sources set ${set} where id = $1`, [m.sourceId])
const liveSource = async (m: Market) =>
  (await queryAs(anon, 'select name, url from public.audience_sources where id = $1', [m.sourceId]))[0]
const pendingOf = async (subjectId: string) => (await queue()).filter((r) => r.subject_id === subjectId)
/** What a decision leaves behind besides the live values: the owner's email and the audit log's line. */
async function traces(revisionId: string, subjectId: string) {
  const emails = await db.query('select 1 from public.notification_queue where dedupe_key = $1', [
    `revision_decided:${revisionId}`,
  ])
  const events = await db.query(
    "select 1 from public.moderation_events where subject_id = $1 and new_status like 'revision %'",
    [subjectId],
  )
  return { emails: emails.rows.length, events: events.rows.length }
}

describe('attack: an owner edits a revision while an admin reads it (issue 37)', () => {
  it('refuses the approval of the version the admin read, applies nothing, and queues the new version for review', async () => {
    const m = await createMarket()
    // The owner proposes a harmless rename; the admin opens the queue and reads version 1.
    await renameSource(m, "name = 'Growth Weekly'")
    const [read] = await pendingOf(m.sourceId)
    expect(read).toMatchObject({ version: 1, changes: { name: 'Growth Weekly' } })
    // While the admin reads, the owner PATCHes again: a phishing name and URL.
    await renameSource(m, "name = 'Claim your prize', url = 'https://evil.example/login'")
    // The admin approves what they read, by id and version: refused, with a sentence and HTTP 409 (PT409).
    expect(await refusalOf(read!.id, read!.version, 'approved', 'Fine')).toBe(EDITED)
    expect(await sqlStateOf(actors.admin, DECIDE, [read!.id, read!.version, 'approved', 'Fine'])).toBe('PT409')
    // Nothing applied: the live values, no email to the owner, no audit line; the revision still waits.
    expect(await liveSource(m)).toEqual({ name: 'Test source', url: null })
    expect(await traces(read!.id, m.sourceId)).toEqual({ emails: 0, events: 0 })
    // The owner still sees one pending change with everything they proposed; the admin sees it as version 2.
    const [now] = await pendingOf(m.sourceId)
    expect(now).toMatchObject({
      id: read!.id,
      version: 2,
      status: 'pending',
      changes: { name: 'Claim your prize', url: 'https://evil.example/login' },
      current_values: { name: 'Test source', url: null },
    })
    expect(
      await queryAs(
        m.publisher.actor,
        "select version, changes from public.content_revisions where subject_id = $1 and status = 'pending'",
        [m.sourceId],
      ),
    ).toEqual([{ version: 2, changes: { name: 'Claim your prize', url: 'https://evil.example/login' } }])
    // Rejecting the old version is refused too: a decision is always about what the admin read.
    expect(await refusalOf(read!.id, 1, 'rejected', 'Looks fine to reject')).toBe(EDITED)
    // The new version needs its own review: rejected as what it is.
    expect(await decide(now!.id, 2, 'rejected', 'Looks like phishing')).toEqual([
      { r: { id: now!.id, status: 'rejected', version: 2 } },
    ])
    expect(await liveSource(m)).toEqual({ name: 'Test source', url: null })
    expect(await traces(read!.id, m.sourceId)).toEqual({ emails: 1, events: 1 })
  })

  it('refuses the old call that names no version, whatever it decides, and applies nothing', async () => {
    const m = await createMarket()
    await renameSource(m, "name = 'Claim your prize', url = 'https://evil.example/login'")
    const [pending] = await pendingOf(m.sourceId)
    const stale = 'This page is out of date: reload it, review the change again and then decide.'
    for (const [sql, params] of [
      ["select public.admin_decide_revision($1, 'approved')", [pending!.id]],
      ["select public.admin_decide_revision($1, 'approved', 'Fine')", [pending!.id]],
      [
        'select public.admin_decide_revision(p_revision_id => $1, p_decision => $2, p_note => $3)',
        [pending!.id, 'approved', null],
      ],
      [
        'select public.admin_decide_revision(p_revision_id => $1, p_decision => $2, p_note => $3)',
        [pending!.id, 'rejected', 'x'],
      ],
    ] as const) {
      expect(await errorOf(actors.admin, sql, [...params]), sql).toBe(stale)
    }
    expect(await refusalOf(pending!.id, null as unknown as number, 'approved')).toBe(
      'Say which version of the change you reviewed',
    )
    expect(await liveSource(m)).toEqual({ name: 'Test source', url: null })
    expect((await pendingOf(m.sourceId)).map((r) => r.version)).toEqual([1])
    expect(await traces(pending!.id, m.sourceId)).toEqual({ emails: 0, events: 0 })
  })

  it('control: the admin approves the version they read, and it goes live; a re-save of the same change keeps it', async () => {
    const m = await createMarket()
    await renameSource(m, "name = 'Growth Weekly'")
    const [read] = await pendingOf(m.sourceId)
    // The owner saves the same form again: nothing new to review, the version the admin reads stays current.
    await renameSource(m, "name = 'Growth Weekly'")
    expect((await pendingOf(m.sourceId)).map((r) => [r.id, r.version])).toEqual([[read!.id, 1]])
    expect(await decide(read!.id, 1, 'approved', 'Fine')).toEqual([
      { r: { id: read!.id, status: 'approved', version: 1 } },
    ])
    expect(await liveSource(m)).toEqual({ name: 'Growth Weekly', url: null })
    expect(await traces(read!.id, m.sourceId)).toEqual({ emails: 1, events: 1 })
    // Decided means decided: the same call again is refused, and an edit after it is a new revision of its own.
    expect(await refusalOf(read!.id, 1, 'approved')).toBe('This revision was already decided')
    await renameSource(m, "url = 'https://growth.example'")
    const [next] = await pendingOf(m.sourceId)
    expect(next).toMatchObject({ version: 1, changes: { url: 'https://growth.example' } })
    expect(next!.id).not.toBe(read!.id)
    await decide(next!.id, 1, 'approved')
    expect(await liveSource(m)).toEqual({ name: 'Growth Weekly', url: 'https://growth.example' })
  })

  it('control: the admin approves the second version after reading it, and rejects a campaign’s version 1', async () => {
    const m = await createMarket()
    await renameSource(m, "name = 'Growth Weekly'")
    await renameSource(m, "description = 'Marketing, weekly'")
    const [source] = await pendingOf(m.sourceId)
    expect(source).toMatchObject({ version: 2, changes: { name: 'Growth Weekly', description: 'Marketing, weekly' } })
    await decide(source!.id, 2, 'approved')
    expect(
      await queryAs(anon, 'select name, description from public.audience_sources where id = $1', [m.sourceId]),
    ).toEqual([{ name: 'Growth Weekly', description: 'Marketing, weekly' }])

    await queryAs(m.advertiser.actor, "update public.campaigns set name = 'Verify your bank' where id = $1", [
      m.campaignId,
    ])
    const [campaign] = await pendingOf(m.campaignId)
    await decide(campaign!.id, campaign!.version, 'rejected', 'Misleading name')
    expect(await queryAs(anon, 'select name from public.campaigns where id = $1', [m.campaignId])).toEqual([
      { name: 'Test newsletter' },
    ])
    expect(
      await queryAs(
        m.advertiser.actor,
        'select status, review_note, version from public.content_revisions where id = $1',
        [campaign!.id],
      ),
    ).toEqual([{ status: 'rejected', review_note: 'Misleading name', version: 1 }])
  })
})

describe('the edit and the decision at the same moment (the row lock orders them)', () => {
  /** Waits until a statement matching `like` waits for a lock (PostgreSQL only). */
  const waitsForLock = (like: string) =>
    vi.waitFor(
      async () => {
        const waiting = await db.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
           where datname = current_database() and wait_event_type = 'Lock' and query like $1`,
          [like],
        )
        expect(waiting.rows[0]!.n).toBe(1)
      },
      { timeout: 20_000 },
    )

  it('an edit committed while the approval waits for it: the approval is refused, nothing applied', async () => {
    const m = await createMarket()
    await renameSource(m, "name = 'Growth Weekly'")
    const [read] = await pendingOf(m.sourceId)
    let decided: Promise<string> | undefined
    await as(m.publisher.actor, async (tx) => {
      await tx.query("update public.audience_sources set name = 'Claim your prize' where id = $1", [m.sourceId])
      // PGlite runs one transaction at a time: the approval comes after this commit, below.
      if (db.kind !== 'postgres') return
      decided = refusalOf(read!.id, read!.version, 'approved')
      await waitsForLock('%admin_decide_revision%')
    })
    decided ??= refusalOf(read!.id, read!.version, 'approved')
    expect(await decided).toBe(EDITED)
    expect(await liveSource(m)).toEqual({ name: 'Test source', url: null })
    expect(await pendingOf(m.sourceId)).toMatchObject([
      { id: read!.id, version: 2, changes: { name: 'Claim your prize' } },
    ])
  })

  it('an edit that waits for an approval: what the admin read goes live, the edit waits as a new revision', async () => {
    const m = await createMarket()
    await renameSource(m, "name = 'Growth Weekly'")
    const [read] = await pendingOf(m.sourceId)
    let edited: Promise<unknown> | undefined
    const phish =
      "update public.audience_sources set name = 'Claim your prize', url = 'https://evil.example' where id = $1"
    await as(actors.admin, async (tx) => {
      await tx.query(DECIDE, [read!.id, read!.version, 'approved', null])
      if (db.kind !== 'postgres') return
      edited = queryAs(m.publisher.actor, phish, [m.sourceId])
      await waitsForLock('%Claim your prize%')
    })
    await (edited ?? queryAs(m.publisher.actor, phish, [m.sourceId]))
    expect(await liveSource(m)).toEqual({ name: 'Growth Weekly', url: null })
    const [next] = await pendingOf(m.sourceId)
    expect(next).toMatchObject({
      version: 1,
      changes: { name: 'Claim your prize', url: 'https://evil.example' },
      current_values: { name: 'Growth Weekly', url: null },
    })
    expect(next!.id).not.toBe(read!.id)
  })
})
