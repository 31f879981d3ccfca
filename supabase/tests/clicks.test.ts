// Clicks on /earn/{code}: resolved by unified code, legacy magic link or id; counted once per visitor
// per source per hour; bots and inactive sources recorded but not counted, each with its reason.
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { anon, drainClicks, errorOf, queryAs, service, testDb } from './helpers/db'
import type { Queryable } from '../../embedded-backend/db/database'
import { ids } from './helpers/fixtures'
import { createMarket } from './helpers/market'

type Click = {
  click_id: string | null
  source_id: string | null
  source_name: string | null
  unified_code: string | null
  status: string
  source_status: string | null
  counted: boolean
  not_counted_reason: string | null
}

const browser = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15'

async function track(
  code: string,
  { ip = `192.0.2.${Math.floor(Math.random() * 250)}`, ua = browser, info = {} } = {},
) {
  const headers = { 'x-real-ip': `${ip}, 10.0.0.1`, 'user-agent': ua, referer: 'https://news.example.com/' }
  const rows = await queryAs<{ r: Click }>(
    anon,
    'select public.track_audience_source_click($1, $2) as r',
    [code, info],
    headers,
  )
  return rows[0]!.r
}

async function clickRow(id: string) {
  const db = await testDb()
  return (await db.query<Record<string, unknown>>('select * from public.link_clicks where id = $1', [id])).rows[0]!
}

describe('track_audience_source_click', () => {
  it('counts a browser click on an approved source and records device info, IP and referrer', async () => {
    const m = await createMarket()
    const info = {
      fingerprint: 'fp-1',
      browser: 'Safari',
      screenWidth: 1512,
      viewport: { width: 1200, height: 800 },
      country: 'France',
    }
    const click = await track(m.code, { ip: '198.51.100.23', info })
    expect(click).toMatchObject({
      source_id: m.sourceId,
      source_name: 'Test source',
      unified_code: m.code,
      status: 'valid',
      source_status: 'approved',
      counted: true,
      not_counted_reason: null,
    })
    const row = await clickRow(click.click_id!)
    expect(row).toMatchObject({
      session_id: click.click_id,
      ip: '198.51.100.23',
      user_agent: browser,
      fingerprint: 'fp-1',
      browser: 'Safari',
      screen_width: 1512,
      viewport_width: 1200,
      country: 'France',
      referrer: 'https://news.example.com/',
    })
    expect(row.visitor_hash).toMatch(/^[0-9a-f]{64}$/)
  })

  it('resolves the legacy magic/{code} form and the source id, and reports unknown codes', async () => {
    const m = await createMarket()
    expect((await track(`magic/${m.code}`)).source_id).toBe(m.sourceId)
    expect((await track(m.sourceId)).source_id).toBe(m.sourceId)
    expect(await track(`missing-${randomUUID()}`)).toMatchObject({
      click_id: null,
      source_id: null,
      status: 'not_found',
      counted: false,
    })
  })

  it('accepts verified and live sources too (one validity rule)', async () => {
    expect(await track('demo-verified')).toMatchObject({ status: 'valid', source_id: ids.sourceVerified })
    expect(await track('demo-live')).toMatchObject({ status: 'valid', source_id: ids.sourceLive })
  })

  it('records but does not count a bot user agent or an empty one', async () => {
    const m = await createMarket()
    expect(
      await track(m.code, { ua: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }),
    ).toMatchObject({
      status: 'valid',
      counted: false,
      not_counted_reason: 'bot_user_agent',
    })
    expect(await track(m.code, { ua: 'curl/8.5.0' })).toMatchObject({
      counted: false,
      not_counted_reason: 'bot_user_agent',
    })
    expect(await track(m.code, { ua: '' })).toMatchObject({ counted: false, not_counted_reason: 'bot_user_agent' })
  })

  it('counts the same visitor once per source per hour', async () => {
    const m = await createMarket()
    const first = await track(m.code, { ip: '203.0.113.77' })
    expect(first.counted).toBe(true)
    expect(await track(m.code, { ip: '203.0.113.77' })).toMatchObject({
      counted: false,
      not_counted_reason: 'duplicate_visitor',
    })
    expect((await track(m.code, { ip: '203.0.113.78' })).counted).toBe(true)
    const db = await testDb()
    await db.query(
      `update public.link_clicks set created_at = now() - interval '61 minutes' where audience_source_id = $1`,
      [m.sourceId],
    )
    expect((await track(m.code, { ip: '203.0.113.77' })).counted).toBe(true)
  })

  it('stops counting an IP address that clicks 60 times within 10 minutes', async () => {
    const m = await createMarket()
    const results = []
    for (let i = 0; i < 61; i++) results.push(await track(m.code, { ip: '192.0.2.250', ua: `${browser} build/${i}` }))
    expect(results.slice(0, 60).every((r) => r.counted)).toBe(true)
    expect(results[60]).toMatchObject({ counted: false, not_counted_reason: 'rate_limited' })
    const db = await testDb()
    await db.query(`update public.link_clicks set created_at = now() - interval '11 minutes' where ip = '192.0.2.250'`)
    expect((await track(m.code, { ip: '192.0.2.250', ua: `${browser} build/later` })).counted).toBe(true)
  })

  it('records a click on an inactive source as not counted and says it is inactive', async () => {
    for (const code of ['demo-pending', 'demo-banned', 'demo-rejected', 'demo-under-review', 'demo-pending-review']) {
      const click = await track(code)
      expect(click, code).toMatchObject({ status: 'inactive', counted: false, not_counted_reason: 'source_inactive' })
      expect(click.click_id).not.toBeNull()
    }
  })
})

describe('attach_click_fingerprint', () => {
  // The /earn fast path sends the click before the fingerprint is computed, then this (issue 16).
  const attach = (clickId: string | null, fingerprint: string, ip: string, ua = browser) =>
    queryAs<{ r: boolean }>(anon, 'select public.attach_click_fingerprint($1, $2) as r', [clickId, fingerprint], {
      'x-real-ip': ip,
      'user-agent': ua,
    }).then((rows) => rows[0]!.r)

  it('fills in the missing fingerprint of a click, in the column and the device info, once', async () => {
    const m = await createMarket()
    const click = await track(m.code, { ip: '198.51.100.40', info: { fingerprint: null, browser: 'Chrome' } })
    expect((await clickRow(click.click_id!)).fingerprint).toBeNull()
    expect(await attach(click.click_id, 'fp-after-redirect', '198.51.100.40')).toBe(true)
    const row = await clickRow(click.click_id!)
    expect(row.fingerprint).toBe('fp-after-redirect')
    expect(row.device_info).toMatchObject({ fingerprint: 'fp-after-redirect', browser: 'Chrome' })
    // Once: a second call changes nothing.
    expect(await attach(click.click_id, 'fp-second', '198.51.100.40')).toBe(false)
    expect((await clickRow(click.click_id!)).fingerprint).toBe('fp-after-redirect')
  })

  it("records 'unknown' when the browser could not compute one (SPEC §8)", async () => {
    const m = await createMarket()
    const click = await track(m.code, { ip: '198.51.100.41' })
    expect(await attach(click.click_id, '  ', '198.51.100.41')).toBe(true)
    expect((await clickRow(click.click_id!)).fingerprint).toBe('unknown')
  })

  it('refuses another visitor, a click that already has one, an old click and a missing id', async () => {
    const m = await createMarket()
    const click = await track(m.code, { ip: '198.51.100.42' })
    expect(await attach(click.click_id, 'fp-x', '198.51.100.43')).toBe(false)
    expect(await attach(click.click_id, 'fp-x', '198.51.100.42', `${browser} other`)).toBe(false)
    const withFingerprint = await track(m.code, { ip: '198.51.100.44', info: { fingerprint: 'fp-sent' } })
    expect(await attach(withFingerprint.click_id, 'fp-x', '198.51.100.44')).toBe(false)
    expect((await clickRow(withFingerprint.click_id!)).fingerprint).toBe('fp-sent')
    const db = await testDb()
    await db.query(`update public.link_clicks set created_at = now() - interval '11 minutes' where id = $1`, [
      click.click_id,
    ])
    expect(await attach(click.click_id, 'fp-x', '198.51.100.42')).toBe(false)
    expect((await clickRow(click.click_id!)).fingerprint).toBeNull()
    expect(await errorOf(anon, 'select public.attach_click_fingerprint(null, $1)', ['fp-x'])).toBe(
      'Which click is this fingerprint for? The click id is missing.',
    )
  })
})

describe('record_campaign_page_view', () => {
  it('sets the campaign, counts page and unique views on that click only, and the source counters', async () => {
    const m = await createMarket()
    const click = await track(m.code)
    const other = await track(m.code)
    const view = () =>
      queryAs<{ r: Record<string, unknown> }>(anon, 'select public.record_campaign_page_view($1, $2) as r', [
        click.click_id,
        m.campaignId,
      ])
    expect((await view())[0]!.r).toEqual({ recorded: true, page_views: 1, unique_views: 1 })
    expect((await view())[0]!.r).toEqual({ recorded: true, page_views: 2, unique_views: 1 })
    expect(await clickRow(click.click_id!)).toMatchObject({ campaign_id: m.campaignId, page_views: 2, unique_views: 1 })
    expect(await clickRow(other.click_id!)).toMatchObject({ campaign_id: null, page_views: 0, unique_views: 0 })
    await drainClicks()
    const db = await testDb()
    const stats = await db.query(
      'select total_views, total_clicks, total_conversions from public.campaign_source_stats where campaign_id = $1',
      [m.campaignId],
    )
    // Opening the page again is one view of this campaign by this click, not two (PRODUCT "view").
    expect(stats.rows).toEqual([{ total_views: 1, total_clicks: 1, total_conversions: 0 }])
  })

  it("keeps the first campaign of a click and counts each campaign's first view once", async () => {
    const m = await createMarket()
    const click = await track(m.code)
    await queryAs(anon, 'select public.record_campaign_page_view($1, $2)', [click.click_id, m.campaignId])
    await queryAs(anon, 'select public.record_campaign_page_view($1, $2)', [click.click_id, ids.campaignActive])
    expect(await clickRow(click.click_id!)).toMatchObject({ campaign_id: m.campaignId, page_views: 2, unique_views: 2 })
  })

  it('does not bump the counters for a click that does not count', async () => {
    const m = await createMarket()
    const bot = await track(m.code, { ua: 'Twitterbot/1.0' })
    await queryAs(anon, 'select public.record_campaign_page_view($1, $2)', [bot.click_id, m.campaignId])
    await drainClicks()
    const db = await testDb()
    const stats = await db.query('select 1 from public.campaign_source_stats where campaign_id = $1', [m.campaignId])
    expect(stats.rows).toEqual([])
  })

  it('records nothing for an unknown click or a campaign that is not active', async () => {
    const click = await track('demo-approved')
    const rows = await queryAs<{ r: unknown }>(anon, 'select public.record_campaign_page_view($1, $2) as r', [
      randomUUID(),
      ids.campaignActive,
    ])
    expect(rows[0]!.r).toEqual({ recorded: false })
    const paused = await queryAs<{ r: unknown }>(anon, 'select public.record_campaign_page_view($1, $2) as r', [
      click.click_id,
      ids.campaignPaused,
    ])
    expect(paused[0]!.r).toEqual({ recorded: false })
  })
})

describe('purge_click_ips', () => {
  it('forgets raw IPs after 30 days and keeps the visitor hash', async () => {
    const m = await createMarket()
    const old = await track(m.code, { ip: '198.51.100.99' })
    const recent = await track(m.code, { ip: '198.51.100.98' })
    const db = await testDb()
    await db.query(`update public.link_clicks set created_at = now() - interval '31 days' where id = $1`, [
      old.click_id,
    ])
    expect(await errorOf(anon, 'select public.purge_click_ips()')).toMatch(/permission denied/)
    const rows = await queryAs<{ n: number }>(service, 'select public.purge_click_ips() as n')
    expect(rows[0]!.n).toBeGreaterThanOrEqual(1)
    expect(await clickRow(old.click_id!)).toMatchObject({ ip: null })
    expect((await clickRow(old.click_id!)).visitor_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(await clickRow(recent.click_id!)).toMatchObject({ ip: '198.51.100.98' })
  })
})

describe('the click figures, kept by the drain-click-queue job (issue 27)', () => {
  const figuresOf = async (m: Awaited<ReturnType<typeof createMarket>>) => {
    const [row] = await queryAs<{ clicks: number; counted: number; not_counted: number }>(
      m.publisher.actor,
      'select clicks::int, counted_clicks::int as counted, not_counted_clicks::int as not_counted from public.source_figures($1)',
      [m.sourceId],
    )
    const reasons = await queryAs<{ reason: string; total: number }>(
      m.publisher.actor,
      "select reason, total::int from public.not_counted_figures(null, $1) where kind = 'click'",
      [m.sourceId],
    )
    return { ...row, reasons: reasons.sort((a, b) => a.reason.localeCompare(b.reason)) }
  }
  const queued = async () => {
    const db = await testDb()
    return (await db.query<{ n: number }>('select count(*)::int as n from private.click_queue')).rows[0]!.n
  }
  const bot = 'Googlebot/2.1 (+http://www.google.com/bot.html)'

  it('leaves the aggregates alone in the click, and the job adds every click, counted or not, with its reason', async () => {
    await drainClicks()
    const m = await createMarket()
    const before = (await queryAs<{ t: string }>(m.publisher.actor, 'select public.figures_updated_at() as t'))[0]!.t
    await track(m.code, { ip: '198.51.100.31' })
    await track(m.code, { ip: '198.51.100.31' }) // the same visitor within the hour
    await track(m.code, { ip: '198.51.100.32' })
    await track(m.code, { ip: '198.51.100.33', ua: bot })
    expect(await figuresOf(m)).toEqual({ clicks: 0, counted: 0, not_counted: 0, reasons: [] })
    expect(await queued()).toBe(4)

    expect(await drainClicks()).toBe(4)
    expect(await queued()).toBe(0)
    expect(await figuresOf(m)).toEqual({
      clicks: 4,
      counted: 2,
      not_counted: 2,
      reasons: [
        { reason: 'bot_user_agent', total: 1 },
        { reason: 'duplicate_visitor', total: 1 },
      ],
    })
    const [totals] = await queryAs<{ counted: number; updated_at: string; now: string }>(
      m.publisher.actor,
      'select counted_clicks::int as counted, updated_at, now() as now from public.source_totals()',
    )
    expect(totals!.counted).toBe(2)
    expect(new Date(totals!.updated_at).getTime()).toBeGreaterThan(new Date(before).getTime())
    // A second run finds nothing new and changes nothing.
    expect(await drainClicks()).toBe(0)
    expect((await figuresOf(m)).clicks).toBe(4)
    // Only the scheduler (service role) runs it.
    expect(await errorOf(m.publisher.actor, 'select public.drain_click_queue()')).toMatch(/permission denied/)
    expect(await errorOf(anon, 'select public.drain_click_queue()')).toMatch(/permission denied/)
  })

  it('counts each click once when two runs overlap', async () => {
    await drainClicks()
    const m = await createMarket()
    for (let i = 0; i < 7; i++) await track(m.code, { ip: `198.51.100.${40 + i}` })
    await track(m.code, { ip: '198.51.100.60', ua: bot })
    const db = await testDb()
    const drain = (tx: Queryable, batch: number) =>
      tx.query<{ n: number }>('select public.drain_click_queue($1, 1) as n', [batch]).then((r) => Number(r.rows[0]!.n))
    let first = 0
    let second = 0
    if (db.kind === 'postgres') {
      // The first run holds its batch (taken, deleted, not committed) while a second one starts on another
      // connection: runs go one at a time, so the second returns at once and takes nothing (two runs upserting the
      // same aggregate rows deadlocked); the next run after the first has committed takes the rest.
      await db.transaction(async (tx) => {
        first = await drain(tx, 3)
        expect(await db.transaction((other) => drain(other, 100))).toBe(0)
      })
      second = await db.transaction((other) => drain(other, 100))
    } else {
      // PGlite runs one transaction at a time: the two runs queue behind each other.
      ;[first, second] = await Promise.all([
        db.transaction((tx) => drain(tx, 3)),
        db.transaction((tx) => drain(tx, 100)),
      ])
    }
    expect(first).toBe(3)
    expect(first + second).toBe(8)
    expect(await figuresOf(m)).toEqual({
      clicks: 8,
      counted: 7,
      not_counted: 1,
      reasons: [{ reason: 'bot_user_agent', total: 1 }],
    })
  })

  it('counts a click made between two runs in the next run', async () => {
    await drainClicks()
    const m = await createMarket()
    await track(m.code, { ip: '198.51.100.70' })
    await drainClicks()
    expect((await figuresOf(m)).counted).toBe(1)
    await track(m.code, { ip: '198.51.100.71' })
    expect((await figuresOf(m)).counted).toBe(1)
    expect(await drainClicks()).toBe(1)
    expect(await figuresOf(m)).toMatchObject({ clicks: 2, counted: 2 })
  })

  it('is scheduled every 10 seconds', async () => {
    const db = await testDb()
    const jobs = await db.query<{ schedule: string; command: string }>(
      "select schedule, command from cron.job where jobname = 'drain-click-queue'",
    )
    expect(jobs.rows).toEqual([{ schedule: '10 seconds', command: 'select public.drain_click_queue()' }])
  })
})

describe("a click's source, without a row lock on it (issue 27)", () => {
  it('refuses a click on a source that does not exist', async () => {
    const db = await testDb()
    await expect(
      db.query(`insert into public.link_clicks (audience_source_id, counted, visitor_hash) values ($1, true, 'h')`, [
        randomUUID(),
      ]),
    ).rejects.toThrow('This click names a source that does not exist.')
  })

  it('refuses to delete a source that has only clicks, and the source then takes clicks as before', async () => {
    const m = await createMarket()
    const db = await testDb()
    await db.query("update public.audience_sources set status = 'pending_review' where id = $1", [m.sourceId])
    const click = await track(m.code, { ip: '198.51.100.80' })
    expect(click).toMatchObject({ status: 'inactive', not_counted_reason: 'source_inactive' })
    expect(await errorOf(service, 'delete from public.audience_sources where id = $1', [m.sourceId])).toBe(
      "This source has clicks or subscribers, so it can't be deleted. Archive it instead.",
    )
    expect((await track(m.code, { ip: '198.51.100.81' })).click_id).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('deletes a source without clicks, and a click that comes after finds no source', async () => {
    const m = await createMarket()
    const db = await testDb()
    expect(
      (await db.query('delete from public.audience_sources where id = $1 returning id', [m.sourceId])).rows,
    ).toHaveLength(1)
    expect(await track(m.code)).toMatchObject({ status: 'not_found', click_id: null })
  })
})
