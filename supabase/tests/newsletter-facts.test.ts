// A newsletter's landing-page facts (issue 38): sample issue link, frequency, audience size and who it is for.
// The owner writes them with the newsletter form's columns; the database refuses what the form refuses, in
// sentences (and its check constraints stay the last word); they are public fields, so after approval an edit is a
// revision that goes live only when an admin approves that version. Both engines (PGlite, and PostgreSQL with
// TEST_DATABASE_URL).
import { beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../embedded-backend/db/database'
import { anon, errorOf, queryAs, testDb } from './helpers/db'
import { actors, createUser, type NewUser } from './helpers/fixtures'
import { createMarket } from './helpers/market'

let db: Db
beforeAll(async () => {
  db = await testDb()
})

const FACTS = 'sample_issue_url, frequency, audience_size, audience_line'

async function submitted(a: NewUser) {
  const [row] = await queryAs<{ id: string }>(
    a.actor,
    `insert into public.campaigns (advertiser_id, name, category, website_url, price_per_subscriber, budget_total, status,
       ${FACTS})
     values ($1, 'Weekly Rust', 'technology', 'https://rust.example', 2, 50, 'pending_review',
       'https://rust.example/issues/1', 'weekly', 4200, 'Rust programmers who ship')
     returning id`,
    [a.id],
  )
  return row!.id
}

const MESSAGES = {
  url: 'The sample issue link must be a full address starting with https:// (at most 2,048 characters)',
  frequency: 'Choose how often the newsletter goes out: daily, several a week, weekly, every two weeks or monthly',
  size: 'Audience size must be a whole number from 0 to 100,000,000',
  line: 'Say who the newsletter is for in at most 160 characters, or leave it empty',
}

describe("a newsletter's facts", () => {
  it('are written by the owner with the form and read by visitors once the newsletter is live', async () => {
    const a = await createUser('advertiser')
    const id = await submitted(a)
    expect(await queryAs(a.actor, `select ${FACTS} from public.campaigns where id = $1`, [id])).toEqual([
      {
        sample_issue_url: 'https://rust.example/issues/1',
        frequency: 'weekly',
        audience_size: 4200,
        audience_line: 'Rust programmers who ship',
      },
    ])
    // Before approval visitors see nothing of it; once active, the public read (the landing page's) has all four.
    expect(await queryAs(anon, `select ${FACTS} from public.campaigns where id = $1`, [id])).toEqual([])
    const m = await createMarket()
    await db.query(`update public.campaigns set frequency = 'monthly', audience_size = 0 where id = $1`, [m.campaignId])
    expect(await queryAs(anon, `select ${FACTS} from public.campaigns where id = $1`, [m.campaignId])).toEqual([
      { sample_issue_url: null, frequency: 'monthly', audience_size: 0, audience_line: null },
    ])
  })

  it('are refused in sentences when the form would refuse them; the limits themselves pass', async () => {
    const a = await createUser('advertiser')
    const id = await submitted(a)
    const set = (sql: string) => errorOf(a.actor, `update public.campaigns set ${sql} where id = $1`, [id])
    expect(await set(`sample_issue_url = 'http://rust.example/issues/1'`)).toBe(MESSAGES.url)
    expect(await set(`sample_issue_url = 'javascript:alert(1)'`)).toBe(MESSAGES.url)
    expect(await set(`sample_issue_url = 'https://rust.example/' || repeat('a', 2048)`)).toBe(MESSAGES.url)
    expect(await set(`frequency = 'hourly'`)).toBe(MESSAGES.frequency)
    expect(await set('audience_size = -1')).toBe(MESSAGES.size)
    expect(await set('audience_size = 100000001')).toBe(MESSAGES.size)
    expect(await set(`audience_line = repeat('a', 161)`)).toBe(MESSAGES.line)
    expect(await set(`audience_line = '   '`)).toBe(MESSAGES.line)
    // A new submission is checked the same way.
    expect(
      await errorOf(
        a.actor,
        `insert into public.campaigns (advertiser_id, name, price_per_subscriber, budget_total, status, frequency)
         values ($1, 'Hourly', 2, 50, 'pending_review', 'hourly')`,
        [a.id],
      ),
    ).toBe(MESSAGES.frequency)
    for (const ok of [
      'audience_size = 0',
      'audience_size = 100000000',
      `audience_line = repeat('a', 160)`,
      `frequency = 'several_a_week'`,
      `sample_issue_url = null, frequency = null, audience_size = null, audience_line = null`,
    ]) {
      expect(await set(ok), ok).toBe('')
    }
  })

  it('are bounded by check constraints too, should the sentence-giving trigger ever be dropped', async () => {
    const a = await createUser('advertiser')
    const id = await submitted(a)
    const refusal = async (sql: string) => {
      let message = ''
      await db
        .transaction(async (tx) => {
          await tx.query('alter table public.campaigns disable trigger campaigns_check_newsletter_facts')
          try {
            await tx.query(`update public.campaigns set ${sql} where id = $1`, [id])
          } catch (error) {
            message = (error as Error).message
          }
          throw new Error('rollback')
        })
        .catch(() => undefined)
      return message
    }
    expect(await refusal(`sample_issue_url = 'http://rust.example'`)).toMatch(/campaigns_sample_issue_url_check/)
    expect(await refusal(`frequency = 'hourly'`)).toMatch(/campaigns_frequency_check/)
    expect(await refusal('audience_size = -1')).toMatch(/campaigns_audience_size_check/)
    expect(await refusal(`audience_line = repeat('a', 161)`)).toMatch(/campaigns_audience_line_check/)
    // The trigger is back after the rollback.
    expect(await errorOf(a.actor, `update public.campaigns set frequency = 'hourly' where id = $1`, [id])).toBe(
      MESSAGES.frequency,
    )
  })
})

describe("after approval a newsletter's facts change only through a revision", () => {
  it('an edit stays out of sight until an admin approves the version they read', async () => {
    const m = await createMarket()
    await queryAs(
      m.advertiser.actor,
      `update public.campaigns set sample_issue_url = 'https://test.example/issue/7', frequency = 'daily',
         audience_size = 12000, audience_line = 'People who test things' where id = $1`,
      [m.campaignId],
    )
    const live = () => queryAs(anon, `select ${FACTS} from public.campaigns where id = $1`, [m.campaignId])
    const none = { sample_issue_url: null, frequency: null, audience_size: null, audience_line: null }
    expect(await live()).toEqual([none])
    const [revision] = await queryAs<{
      id: string
      version: number
      changes: Record<string, unknown>
      current_values: Record<string, unknown>
    }>(
      actors.admin,
      'select id, version, changes, current_values from public.admin_revisions() where subject_id = $1',
      [m.campaignId],
    )
    const proposed = {
      sample_issue_url: 'https://test.example/issue/7',
      frequency: 'daily',
      audience_size: 12000,
      audience_line: 'People who test things',
    }
    expect(revision).toMatchObject({ version: 1, changes: proposed, current_values: none })

    // The owner edits again before the decision: a new version, and the decision on the old one applies nothing.
    await queryAs(m.advertiser.actor, 'update public.campaigns set audience_size = 99 where id = $1', [m.campaignId])
    const decide = (version: number) =>
      errorOf(
        actors.admin,
        'select public.admin_decide_revision(p_revision_id => $1, p_version => $2, p_decision => $3)',
        [revision!.id, version, 'approved'],
      )
    expect(await decide(1)).toBe('This change was edited after you opened it. Review the new version.')
    expect(await live()).toEqual([none])
    expect(await decide(2)).toBe('')
    expect(await live()).toEqual([{ ...proposed, audience_size: 99 }])
  })

  it('a rejected revision leaves the live facts as they were', async () => {
    const m = await createMarket()
    await db.query(`update public.campaigns set frequency = 'weekly', audience_size = 500 where id = $1`, [
      m.campaignId,
    ])
    await queryAs(m.advertiser.actor, `update public.campaigns set frequency = 'monthly' where id = $1`, [m.campaignId])
    const [revision] = await queryAs<{ id: string }>(
      actors.admin,
      'select id from public.admin_revisions() where subject_id = $1',
      [m.campaignId],
    )
    await queryAs(
      actors.admin,
      'select public.admin_decide_revision(p_revision_id => $1, p_version => 1, p_decision => $2, p_note => $3)',
      [revision!.id, 'rejected', 'Monthly does not match the archive'],
    )
    expect(
      await queryAs(anon, 'select frequency, audience_size from public.campaigns where id = $1', [m.campaignId]),
    ).toEqual([{ frequency: 'weekly', audience_size: 500 }])
  })

  it('a proposal an admin could never approve is refused when it is made, through the table or the function', async () => {
    const m = await createMarket()
    expect(
      await errorOf(m.advertiser.actor, `update public.campaigns set audience_size = -5 where id = $1`, [m.campaignId]),
    ).toBe(MESSAGES.size)
    expect(
      await errorOf(m.advertiser.actor, 'select public.submit_revision($1, $2, $3)', [
        'campaign',
        m.campaignId,
        { sample_issue_url: 'http://plain.example/issue' },
      ]),
    ).toBe(MESSAGES.url)
    expect(
      await errorOf(m.advertiser.actor, 'select public.submit_revision($1, $2, $3)', [
        'campaign',
        m.campaignId,
        { audience_size: '12e3' },
      ]),
    ).toBe(MESSAGES.size)
    expect(
      await db.query('select 1 from public.content_revisions where subject_id = $1', [m.campaignId]),
    ).toMatchObject({ rows: [] })
  })
})
